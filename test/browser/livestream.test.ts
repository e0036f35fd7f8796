// Live out of the room, with the service's real web SDKs and UI kits in Debian's Chromium:
// - a livestream host's page starts the livestream; it goes LIVE once the meeting's first HLS segment
//   is out, a viewer's page sees it LIVE with its playback URL, the viewer kit's player plays it (the
//   meeting, not the sample), and the host's page stops it;
// - a line a transcribed bot says reaches each SDK's meeting.ai as partial transcripts then the
//   final one, with the bot's ids and name; a page that joins later has the lines said before;
// - each kit's captions show the line.
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { closeServer, endAll } from '../helpers/end-all.js';
import { givePage } from '../helpers/page-pool.js';
import { KITS, openKit, serveKitPage, showsMeeting } from '../helpers/ui-kit.js';
import { withFfmpeg } from '../helpers/media-probe.js';
import { CHROMIUM, SDKS, Frontend, addPerson, addPreset, launchTrusting, readUntil, restOf, type Person, type Sdk } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow. */
const WAIT = 30_000;
const browsers = existsSync(CHROMIUM) || Boolean(process.env.CI);

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ seed: 'live out of the room', clock: 'real', tlsPort: 0 });
  await addPreset(emu, 'transcribed_host', 'group_call_host', { transcription_enabled: true });
}, 60_000);
afterAll(async () => {
  await emu?.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);
async function control(route: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}/_emulator${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, route).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe.skipIf(!browsers).each(SDKS)('$name: livestream and transcripts in the page', (sdk: Sdk) => {
  let frontend: Frontend;

  async function join(p: Person): Promise<Page> {
    const page = await frontend.open(p);
    await page.evaluate(
      `(async () => {
        window.heard = [];
        window.meeting = await ${sdk.global}.init({ authToken: ${JSON.stringify(p.token)}, baseURI: ${JSON.stringify(frontend.base)}, defaults: { audio: false, video: false } });
        window.meeting.ai.on('transcript', (t) => window.heard.push({ ...t, date: String(t.date) }));
        await window.meeting.join();
      })()`,
    );
    return page;
  }

  const run = <T>(page: Page, body: string): Promise<T> => page.evaluate<T>(`(async () => { const m = window.meeting; ${body} })()`);
  const until = <T>(page: Page, body: string, ok: (v: T) => boolean): Promise<T> => readUntil(() => run<T>(page, body), ok, WAIT);

  beforeAll(async () => {
    frontend = await Frontend.start(sdk, emu);
  }, 60_000);
  afterEach(async () => {
    await frontend?.endPages();
  });
  afterAll(async () => {
    await frontend?.close();
  });

  it.runIf(withFfmpeg)(
    "a livestream host's page starts the meeting's livestream: LIVE with the room's HLS, seen by a viewer's page, stopped by the host",
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Live' });
      const host = await addPerson(emu, meeting.id, 'Ada', 'livestream_host');
      const viewer = await addPerson(emu, meeting.id, 'Val', 'livestream_viewer');
      const a = await join(host);
      const v = await join(viewer);
      const state = `return m.livestream ? { state: m.livestream.state, url: m.livestream.playbackUrl || null } : null;`;
      await run(a, `await m.livestream.start(); return null;`);
      const live = await readUntil(
        () => rest<{ status: string; playback_url: string }>('GET', `/v2/meetings/${meeting.id}/active-livestream`),
        (l) => l.status === 'LIVE',
        WAIT,
      );
      expect(live.status).toBe('LIVE');
      expect(await until(v, state, (s: { state: string } | null) => s?.state === 'LIVESTREAMING')).toEqual({ state: 'LIVESTREAMING', url: live.playback_url });
      // The playback URL is the meeting's own HLS: a multivariant playlist naming the live one.
      const master = await (await fetch(live.playback_url)).text();
      expect(master).toMatch(/^#EXTM3U\n[\s\S]*live\.m3u8\?viewer=/);
      await run(a, `await m.livestream.stop(); return null;`);
      expect(await until(v, state, (s: { state: string } | null) => s?.state === 'IDLE')).toEqual({ state: 'IDLE', url: null });
      expect((await fetch(live.playback_url)).status).toBe(404);
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it(
    "a bot's line reaches meeting.ai as partials then the final line, with its ids and name; a page that joins later has it",
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Standup' });
      const ada = await addPerson(emu, meeting.id, 'Ada', 'transcribed_host');
      const zed = await addPerson(emu, meeting.id, 'Zed', 'transcribed_host');
      const late = await addPerson(emu, meeting.id, 'Lou', 'transcribed_host');
      const a = await join(ada);
      await control(`/meetings/${meeting.id}/participants/${zed.id}/join`);
      const said = await control(`/meetings/${meeting.id}/participants/${zed.id}/transcript`, { text: 'Good morning everyone, shall we start' });
      expect(said.live).toBe(true);

      type Heard = { name: string; peerId: string; userId: string; customParticipantId: string; transcript: string; isPartialTranscript: boolean };
      const heard = await until<Heard[]>(a, 'return window.heard;', (h) => h.some((t) => !t.isPartialTranscript));
      expect(heard.map((t) => [t.transcript, t.isPartialTranscript])).toEqual([
        ['Good morning', true],
        ['Good morning everyone,', true],
        ['Good morning everyone, shall we', true],
        ['Good morning everyone, shall we start', false],
      ]);
      for (const t of heard) expect(t).toMatchObject({ name: 'Zed', peerId: zed.id, userId: zed.id, customParticipantId: 'zed' });
      // meeting.ai keeps one entry per line: the partials grow into the final one.
      expect(await run(a, `return m.ai.transcripts.map((t) => [t.name, t.transcript, t.isPartialTranscript]);`)).toEqual([
        ['Zed', 'Good morning everyone, shall we start', false],
      ]);

      const l = await join(late);
      expect(await until<string[]>(l, 'return m.ai.transcripts.map((t) => t.transcript);', (x) => x.length === 1)).toEqual([
        'Good morning everyone, shall we start',
      ]);
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );
});

describe.skipIf(!browsers).each(KITS)('$name: captions', (kit) => {
  let browser: Browser;
  let pages: Server;
  let pagesUrl: string;
  const p = kit.prefix;

  beforeAll(async () => {
    ({ url: pagesUrl, server: pages } = await serveKitPage(kit));
    browser = await launchTrusting(emu.url);
  }, 60_000);
  afterAll(() =>
    endAll(
      () => browser?.close(),
      () => closeServer(pages),
    ),
  );

  it.runIf(withFfmpeg)(
    "a livestream viewer's kit plays the meeting's livestream",
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Watch' });
      const viewer = await addPerson(emu, meeting.id, 'Val', 'livestream_viewer');
      const host = await addPerson(emu, meeting.id, 'Hal', 'livestream_host');
      await control(`/meetings/${meeting.id}/participants/${host.id}/join`, { media: { audio: true, video: true } });
      await rest('POST', `/v2/meetings/${meeting.id}/livestreams`, {});
      await readUntil(
        () => rest<{ status: string }>('GET', `/v2/meetings/${meeting.id}/active-livestream`),
        (l) => l.status === 'LIVE',
        WAIT,
      );
      const { page } = await openKit(browser, kit, pagesUrl, { token: viewer.token, base: new URL(emu.tlsUrl!).host, showSetupScreen: false });
      // The kit's player (hls.js) plays the playback URL: its video's time moves on.
      const video = page.locator(`${p}-livestream-player video`).first();
      await video.waitFor({ state: 'attached', timeout: WAIT });
      await expect
        .poll(() => video.evaluate((v: { currentTime: number; videoWidth: number }) => (v.videoWidth === 1280 ? v.currentTime : 0)), { timeout: 2 * WAIT })
        .toBeGreaterThan(1);
      await givePage(page);
    },
    4 * WAIT,
  );

  it(
    "the transcript panel shows a bot's line as it is said, and so do the captions",
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Captions' });
      const ada = await addPerson(emu, meeting.id, 'Ada', 'transcribed_host');
      const zed = await addPerson(emu, meeting.id, 'Zed', 'transcribed_host');
      await control(`/meetings/${meeting.id}/participants/${zed.id}/join`);
      const { page } = await openKit(browser, kit, pagesUrl, { token: ada.token, base: new URL(emu.tlsUrl!).host, showSetupScreen: false });
      await showsMeeting(page, kit, WAIT);
      // The captions: their toggle is in the control bar's "more" menu for a participant whose preset
      // transcribes. Dyte's meeting starts with them off, and a click turns them on; RealtimeKit's starts
      // with them on for such a participant (its meeting sets the captions' state from the permission
      // transcriptionEnabled as it gets the meeting), so its toggle offers to turn them off, and a click
      // there would hide them.
      const startsOn = kit.prefix === 'rtk';
      await page.locator(`${p}-more-toggle`).first().click();
      const toggle = page.locator(`${p}-caption-toggle`).first();
      await toggle
        .getByText(startsOn ? 'Turn off Transcripts' : 'Turn on Transcripts')
        .first()
        .waitFor({ state: 'visible', timeout: WAIT });
      if (startsOn) await page.locator(`${p}-more-toggle`).first().click();
      else await toggle.click();
      await toggle.waitFor({ state: 'hidden', timeout: WAIT });
      await control(`/meetings/${meeting.id}/participants/${zed.id}/transcript`, { text: 'Captions are on' });
      await page.locator(`${p}-transcripts`).getByText('Captions are on').first().waitFor({ state: 'visible', timeout: WAIT });
      await page.locator(`${p}-transcripts`).getByText('Zed').first().waitFor({ state: 'visible', timeout: WAIT });
      // The AI panel's transcript view: the line, under the speaker's name.
      await page.locator(`${p}-ai-toggle`).first().click();
      const panel = page.locator(`${p}-ai-transcriptions`);
      await panel.getByText('Captions are on').first().waitFor({ state: 'visible', timeout: WAIT });
      await panel.getByText('Zed').first().waitFor({ state: 'visible', timeout: WAIT });
      await givePage(page);
    },
    4 * WAIT,
  );
});
