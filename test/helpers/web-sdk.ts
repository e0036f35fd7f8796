// What the browser tests and the benchmark of the web SDKs share: the two SDKs, a frontend's own
// origin serving a page and the SDK's browser bundle, a Chromium that trusts exactly the
// emulator's certificate (by its public key), as a throwaway profile would, and the pages a test
// opens there; and the emulator's API as a frontend's backend calls it (meetings, people, presets).
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { RECONNECT_WINDOW_MS } from '../../src/realtime/network/network-trouble.js';
import { closeServer, endAll } from './end-all.js';
import { givePage, takePage } from './page-pool.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The options of a browser file's suite of one SDK or kit that has an emulator and a browser of its
 * own: such suites run side by side, since their tests spend most of their time waiting on what real
 * media and the SDKs' own timers take in real time. The tests inside one suite share its pages and
 * check what the emulator holds after each, so they are declared `it.sequential` and run one after
 * another.
 */
export const SIDE_BY_SIDE = { concurrent: true } as const;

/** The service's web SDKs: their browser bundles and the global each defines. */
export const SDKS = [
  { name: '@dytesdk/web-core', bundle: 'node_modules/@dytesdk/web-core/dist/index.iife.js', global: 'DyteClient' },
  { name: '@cloudflare/realtimekit', bundle: 'node_modules/@cloudflare/realtimekit/dist/browser.js', global: 'RealtimeKitClient' },
] as const;
export type Sdk = (typeof SDKS)[number];

/**
 * How the pages' origins serve the files of the installed SDK and UI kit packages: as a CDN serves a
 * published version's files, which never change. A page's browser keeps them between its tabs (the
 * kept pages of test/helpers/page-pool.ts), as it keeps an app's scripts for a returning user: a kit's
 * page then loads its 70-odd modules from the cache, compiled already, instead of from the test's
 * process (bench/TEST-SUITE.md measures it). The pages' own documents are served without, anew each time.
 */
export const PACKAGE_FILE_CACHING = { 'cache-control': 'public, max-age=31536000, immutable' } as const;

/** A frontend's origin (http://127.0.0.1:<port>/): an empty page that loads the SDK's bundle from /sdk.js. */
export async function servePages(sdk: Sdk): Promise<{ url: string; server: Server }> {
  const script = readFileSync(path.join(ROOT, sdk.bundle));
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript', ...PACKAGE_FILE_CACHING }).end(script);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><script src="/sdk.js"></script></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/**
 * The browser's host names: this machine's alone (127.0.0.1, where the pages' origins and the
 * emulator's plain port listen, and `localhost` with its subdomains, the emulator's TLS hosts); any
 * other fails at once as a name that does not resolve, so that a page stays offline (the kits ask for
 * fonts, sounds and images on the internet). Chromium's own resolver does it, at no cost per
 * request: Playwright's request routing, which did it before, takes each of a kit page's 73–75 requests
 * through the test's process (about 0.2 CPU-s a kit page, bench/TEST-SUITE.md).
 */
const OFFLINE_RESOLVER = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost';

/**
 * Debian's Chromium, headless, trusting the certificate the emulator at `emulatorUrl` serves (and no
 * other), offline but for this machine (OFFLINE_RESOLVER), with fake devices so that a page may ask
 * for a camera and microphone; `args` are more of Chromium's switches (a network policy, another
 * fake camera).
 */
export async function launchTrusting(emulatorUrl: string, args: readonly string[] = []): Promise<Browser> {
  const pem = await (await fetch(`${emulatorUrl}/_emulator/tls/certificate`)).text();
  const spki = createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('base64');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      `--ignore-certificate-errors-spki-list=${spki}`,
      OFFLINE_RESOLVER,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      ...args,
    ],
  });
}

/**
 * Keeps what `page` throws and nobody catches, as `prefix` and the message, in `into` (what a test
 * compares), and writes where it was thrown to the test's stderr: an SDK's error is often one word
 * ("closed"), and only its stack says which of its parts threw it.
 */
export function collectPageErrors(page: Page, prefix: string, into: string[]): void {
  page.on('pageerror', (e) => {
    into.push(`${prefix}${e.message}`);
    process.stderr.write(`page error (${prefix}${e.message}): ${e.stack ?? 'no stack'}\n`);
  });
}

/** The pages whose SDK has sent its call statistics (realtimekit's collector at `da-collector.<base>`). */
const callStatsSenders = new WeakSet<Page>();

/**
 * Notes, from the page's next request on (a page given back and taken again starts anew), when its
 * SDK sends its call statistics: realtimekit's start once it has fetched the ICE servers and the
 * location service (beside its join), and send their first message as they start. The pages of
 * Frontend and of the UI kits are watched.
 */
export function watchCallStats(page: Page): void {
  callStatsSenders.delete(page);
  page.on('request', (r) => {
    if (new URL(r.url()).hostname.startsWith('da-collector.')) callStatsSenders.add(page);
  });
}

/** Whether the page's SDK has sent its call statistics yet (watchCallStats). */
export function sentCallStats(page: Page): boolean {
  return callStatsSenders.has(page);
}

/**
 * Waits until the page's call statistics run: it has sent their first message (watchCallStats).
 * realtimekit starts them after the page has fetched the ICE servers and the location service, beside
 * its join, and until then queues what it is told, in order. Two kinds of test need them running:
 * - a test of realtimekit's scores: a track received before they ran is never scored, since they take
 *   in the tracks already received by looking where the SDK's transport does not keep them;
 * - a test that ends a page's session (a kick, an end for all) and expects no page error: a page that
 *   leaves first closes its transports, and the statistics, once they start, run their queued first
 *   reading on those closed transports before their queued stop, which throws "closed" in the page.
 */
export async function callStatsRunning(page: Page, waitMs = 30_000): Promise<void> {
  expect(
    await readUntil(
      async () => sentCallStats(page),
      (sent) => sent,
      waitMs,
    ),
    "the page's call statistics run",
  ).toBe(true);
}

/**
 * A frontend under test with one SDK: its origin (servePages), a Chromium that trusts the emulator
 * (launchTrusting), and the pages a test opens there, with what each of them threw.
 */
export class Frontend {
  /** The pages opened since the last endPages(). */
  readonly opened: Page[] = [];
  /** What the pages threw since the last endPages(), each as `<name>: <message>`. */
  readonly pageErrors: string[] = [];

  private constructor(
    private readonly browser: Browser,
    private readonly server: Server,
    /** The frontend's origin: an empty page that loads the SDK. */
    readonly url: string,
    /** The emulator's TLS host and port: the SDK's baseURI. */
    readonly base: string,
  ) {}

  /** `args`: more of Chromium's switches for its browser (launchTrusting). */
  static async start(sdk: Sdk, emu: { url: string; tlsUrl: string | undefined }, args: readonly string[] = []): Promise<Frontend> {
    const base = new URL(emu.tlsUrl!).host;
    const { url, server } = await servePages(sdk);
    try {
      return new Frontend(await launchTrusting(emu.url, args), server, url, base);
    } catch (e) {
      await closeServer(server);
      throw e;
    }
  }

  /**
   * A page on the frontend's origin, for `who` (named in what it throws): a fresh document in a fresh
   * profile, in a tab an earlier test may have given back (page-pool.ts); `initScript` runs in it
   * before any of its own. `fakeClock`: the page's timers run on Playwright's clock (installed before
   * it loads, flowing as real time until a test moves it), so that a test can skip an SDK's waits.
   */
  async open(who: { name: string }, initScript?: string, options: { fakeClock?: boolean } = {}): Promise<Page> {
    const page = await takePage(this.browser, { initScript, fakeClock: options.fakeClock });
    this.opened.push(page);
    collectPageErrors(page, `${who.name}: `, this.pageErrors);
    watchCallStats(page);
    await page.goto(this.url);
    return page;
  }

  /**
   * Ends the pages still open (each given back for a later open, page-pool.ts) and forgets what they
   * threw: the next test starts with none.
   */
  async endPages(): Promise<void> {
    for (const page of this.opened.splice(0)) await givePage(page);
    this.pageErrors.length = 0;
  }

  /** Closes the browser (and every page in it) and the origin. */
  close(): Promise<void> {
    return endAll(
      () => this.browser.close(),
      () => closeServer(this.server),
    );
  }
}

/**
 * Reads until `ok` accepts what `read` answers or `waitMs` have passed, every `everyMs`: the last
 * value read, for the test's assertion to show (a page's SDK updates on socket pushes, a moment
 * after whatever caused them).
 */
export async function readUntil<T>(read: () => Promise<T>, ok: (value: T) => boolean, waitMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** What the emulator's media holds: its health answer's open transports, published tracks and received tracks. */
export interface MediaHeld {
  transports: number;
  producers: number;
  consumers: number;
}

/** What the emulator's media holds now. */
export async function mediaHeld(emu: { url: string }): Promise<MediaHeld> {
  const { media } = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: MediaHeld };
  return { transports: media.transports, producers: media.producers, consumers: media.consumers };
}

/**
 * Once a test's pages are closed: what the emulator's media still holds when it holds nothing, or
 * after `waitMs` (for the test to show). A page closed on a busy machine can go without a close
 * frame; the emulator then keeps its participant, and what its page held, for the reconnect window,
 * which starts when the emulator notices the socket gone, a moment after the page closed. So each
 * reading first moves the emulator's clock past that window: however late the loss is noticed, the
 * reading after it finds the window over.
 */
export function releasedAfterClose(emu: { url: string; advance(ms: number): Promise<void> }, waitMs: number): Promise<MediaHeld> {
  return readUntil(
    async () => {
      await emu.advance(RECONNECT_WINDOW_MS);
      return mediaHeld(emu);
    },
    (h) => h.transports + h.producers + h.consumers === 0,
    waitMs,
  );
}

/**
 * The emulator's API as a page's backend calls it (the org's own credentials): the `data` of a 2xx
 * answer, or the test fails naming the call.
 */
export function restOf(emu: { url: string; authHeader: string }) {
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${emu.url}${route}`, {
      method,
      headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${route}`).toBeLessThan(300);
    return ((await res.json()) as { data: T }).data;
  };
}

/**
 * The emulator's routes as a test calls them without credentials (its control API, `route` from
 * the root: /_emulator/…): the status and the JSON body of whatever it answers, for the test to check.
 */
export function controlOf(emu: { url: string }) {
  return async (method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${emu.url}${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

/** A participant the tests add to a meeting: who a page joins as. */
export interface Person {
  id: string;
  token: string;
  name: string;
}

/** Adds a participant to a meeting (the host preset unless another is named; the custom id is the lower-case name). */
export async function addPerson(emu: { url: string; authHeader: string }, meetingId: string, name: string, preset = 'group_call_host'): Promise<Person> {
  const p = await restOf(emu)<{ id: string; token: string }>('POST', `/v2/meetings/${meetingId}/participants`, {
    name,
    preset_name: preset,
    custom_participant_id: name.toLowerCase(),
  });
  return { ...p, name };
}

/**
 * A preset of the organization made from another one (its whole document), under a new name, with
 * some permissions changed: `{ waiting_room_type: 'SKIP_ON_ACCEPT' }` for a guest who waits.
 */
export async function addPreset(emu: { url: string; authHeader: string }, name: string, from: string, permissions: Record<string, unknown>): Promise<void> {
  const rest = restOf(emu);
  const list = await rest<{ id: string; name: string }[]>('GET', '/v2/presets?per_page=100');
  const base = await rest<{ config: unknown; permissions: Record<string, unknown>; ui: unknown }>(
    'GET',
    `/v2/presets/${list.find((p) => p.name === from)!.id}`,
  );
  await rest('POST', '/v2/presets', { name, config: base.config, ui: base.ui, permissions: { ...base.permissions, ...permissions } });
}
