// What a UI kit's page costs the machine when its tab is kept between tests (test/helpers/page-pool.ts),
// with the SDK's and kit's files kept in the browser's HTTP cache (web-sdk.ts PACKAGE_FILE_CACHING)
// against the cache emptied before each page (as the kept tabs did before): from openKit to the meeting
// shown and half a second more, then the page given back. The CPU of Chromium's processes, the media plane
// and this process, by kind, read from /proc (Linux), per page; the two ways alternate round by round.
//
//   npx tsx bench/kit-page.ts [--kit rtk|dyte] [--rounds 3] [--pages 6]
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/index.js';
import { givePage } from '../test/helpers/page-pool.js';
import { KITS, openKit, serveKitPage, showsMeeting } from '../test/helpers/ui-kit.js';
import { addPerson, launchTrusting, restOf } from '../test/helpers/web-sdk.js';
import { commandLine, cpuSeconds, processIds } from './lib/proc.js';

const { values } = parseArgs({
  options: { kit: { type: 'string', default: 'rtk' }, rounds: { type: 'string', default: '3' }, pages: { type: 'string', default: '6' } },
});
const kit = KITS.find((k) => k.prefix === values.kit);
if (!kit) throw new Error(`--kit: one of ${KITS.map((k) => k.prefix).join(', ')}`);
const [ROUNDS, PAGES] = [Number(values.rounds), Number(values.pages)];

/** A process's kind: Chromium's by its --type (and utility sub-type), the media plane, this process. */
function kindOf(pid: string, cmd: string): string | null {
  if (Number(pid) === process.pid) return 'test process';
  if (/media-plane|plane-process/.test(cmd)) return 'media plane';
  if (!/chrom/.test(cmd)) return null;
  const type = /--type=(\S+)/.exec(cmd)?.[1] ?? 'browser';
  const sub = /--utility-sub-type=([^.\s]+)/.exec(cmd)?.[1];
  return `chromium ${type}${sub ? ` ${sub}` : ''}`;
}

/** CPU seconds so far of every process of a kind, by pid. */
function cpu(): Map<string, { kind: string; seconds: number }> {
  const out = new Map<string, { kind: string; seconds: number }>();
  for (const pid of processIds()) {
    const kind = kindOf(pid, commandLine(pid));
    const seconds = kind === null ? undefined : cpuSeconds(pid);
    if (kind !== null && seconds !== undefined) out.set(pid, { kind, seconds });
  }
  return out;
}

const emu = await startEmulator({ clock: 'manual', tlsPort: 0 });
const base = new URL(emu.tlsUrl!).host;
const pages = await serveKitPage(kit);
const browser = await launchTrusting(emu.url);
const meeting = await restOf(emu)<{ id: string }>('POST', '/v2/meetings', { title: 'kit pages' });
let people = 0;

/** One page: made or taken, shown, given back. `emptied`: the browser's cache is emptied before it. */
async function onePage(emptied: boolean): Promise<void> {
  const ada = await addPerson(emu, meeting.id, `Ada ${++people}`);
  const { page } = await openKit(browser, kit!, pages.url, { token: ada.token, base, showSetupScreen: false });
  await showsMeeting(page, kit!, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (emptied) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  }
  await givePage(page);
}

const rows: { way: string; perPage: number; ms: number; byKind: Map<string, number> }[] = [];
// The first pages of each way make the tab and warm the process: not counted.
for (const emptied of [true, false]) for (let i = 0; i < 2; i++) await onePage(emptied);
for (let round = 0; round < ROUNDS; round++) {
  for (const emptied of [true, false]) {
    await onePage(emptied); // the cache as this way leaves it
    const before = cpu();
    const started = Date.now();
    for (let i = 0; i < PAGES; i++) await onePage(emptied);
    const byKind = new Map<string, number>();
    for (const [key, { kind, seconds }] of cpu()) byKind.set(kind, (byKind.get(kind) ?? 0) + (seconds - (before.get(key)?.seconds ?? 0)) / PAGES);
    const perPage = [...byKind.values()].reduce((a, b) => a + b, 0);
    rows.push({ way: emptied ? 'cache emptied' : 'package files cached', perPage, ms: (Date.now() - started) / PAGES, byKind });
  }
}
await browser.close();
pages.server.close();
await emu.close();

const kinds = ['chromium renderer', 'chromium browser', 'test process', 'chromium utility network', 'chromium gpu-process'];
console.log(`${kit.name}, ${PAGES} pages a round, ${ROUNDS} rounds, alternating; CPU-s per page\n`);
console.log(`| round | way | in all | ${kinds.join(' | ')} | ms a page |`);
console.log(`|---|---|---:|${kinds.map(() => '---:').join('|')}|---:|`);
rows.forEach((r, i) =>
  console.log(
    `| ${Math.floor(i / 2) + 1} | ${r.way} | ${r.perPage.toFixed(2)} | ${kinds.map((k) => (r.byKind.get(k) ?? 0).toFixed(2)).join(' | ')} | ${r.ms.toFixed(0)} |`,
  ),
);
