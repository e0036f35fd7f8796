import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from 'meetings-emulator';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Your frontend; here, a page that loads the SDK's browser bundle and nothing else.
const sdk = readFileSync('node_modules/@cloudflare/realtimekit/dist/browser.js');

let emu: RunningEmulator;
let site: Server;
let browser: Browser;

beforeAll(async () => {
  emu = await startEmulator({ tlsPort: 0 }); // manual clock; the SDK's TLS listener on a free port
  site = createServer((req, res) => res.end(req.url === '/sdk.js' ? sdk : '<script src="/sdk.js"></script>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // The browser trusts the emulator's certificate, and no other, by its public key.
  const pem = await (await fetch(`${emu.url}/_emulator/tls/certificate`)).text();
  const spki = createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('base64');
  if (existsSync(chromiumPath)) browser = await chromium.launch({ executablePath: chromiumPath, args: [`--ignore-certificate-errors-spki-list=${spki}`] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  site.close();
  await emu.close();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return ((await res.json()) as { data: T }).data;
}

/** What the test uses in the page: the SDK's global, and what the SDK told of its socket (`reconnecting`, …). */
type InPage = {
  RealtimeKitClient: {
    init(options: object): Promise<{
      meta: { on(event: 'socketConnectionUpdate', listener: (s: { state: string; reconnected: boolean }) => void): void };
      join(): Promise<void>;
    }>;
  };
  states: string[];
};

const socketStates = (page: Page) => page.evaluate(() => (globalThis as unknown as InPage).states);

it.skipIf(!existsSync(chromiumPath))(
  'a page back from a 20 s outage: the SDK reconnects by itself, and nobody saw it leave',
  async () => {
    const meeting = await api<{ id: string }>('POST', '/v2/meetings', { title: 'Bad network' });
    const ada = await api<{ id: string; token: string }>('POST', `/v2/meetings/${meeting.id}/participants`, {
      name: 'Ada',
      preset_name: 'group_call_host',
      custom_participant_id: 'ada',
    });

    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    await page.evaluate(
      async ({ authToken, baseURI }) => {
        const w = globalThis as unknown as { RealtimeKitClient: any; states: string[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
        const meeting = await w.RealtimeKitClient.init({ authToken, baseURI, defaults: { audio: false, video: false } });
        w.states = [];
        meeting.meta.on('socketConnectionUpdate', (s: { state: string; reconnected: boolean }) =>
          w.states.push(s.reconnected ? `${s.state} (reconnected)` : s.state),
        );
        await meeting.join();
      },
      { authToken: ada.token, baseURI: new URL(emu.tlsUrl!).host },
    );

    // The network fails: the page's socket is cut, and refused for 20 s of the emulator's clock.
    await emu.setNetwork(meeting.id, ada.id, { scenario: 'signal-outage', seconds: 20 });
    await expect.poll(() => socketStates(page), { timeout: 30_000 }).toContain('reconnecting');
    // Here your app shows its "Reconnecting…" banner: assert on it.

    await emu.advance(20_000); // the outage is over; the SDK's next attempt gets through
    await expect.poll(() => socketStates(page), { timeout: 30_000 }).toContain('connected (reconnected)');

    // Ada never left: still in the meeting's live session.
    const session = await api<{ live_participants: number }>('GET', `/v2/meetings/${meeting.id}/active-session`);
    expect(session.live_participants).toBe(1);
    expect((await emu.network(meeting.id, ada.id)).participants[0]).toMatchObject({ connection: 'connected', scenarios: [] });
  },
  90_000,
);
