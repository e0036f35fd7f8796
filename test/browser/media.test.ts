// Audio and video through the emulator, as a frontend developer sees them: the service's real web
// SDKs in Debian's Chromium with fake camera, microphone and screen, publishing to the emulator's
// SFU and receiving each other's tracks. What is checked is what a page can observe: decoded
// video frames that keep coming, audio packets that arrive, the SDK's own flags for a camera or
// microphone turned off (by the page, or by a REST mute), a screen share, a bot's clip, a preset
// that may not publish, a webinar viewer let onto the stage, and media off. The emulator's open transports, producers and consumers
// (its health) are back to zero once the pages are gone.
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { joinPage } from '../helpers/page-media.js';
import { givePage } from '../helpers/page-pool.js';
import {
  CHROMIUM,
  SDKS,
  Frontend,
  addPerson,
  addPreset,
  mediaHeld,
  readUntil,
  releasedAfterClose,
  restOf,
  type MediaHeld,
  type Person,
  type Sdk,
  SIDE_BY_SIDE,
} from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow; how fast media starts is measured by bench/web-sdk.ts, not here. */
const WAIT = 30_000;

/**
 * What one page sees of another participant (by name), read in the page. Passed as a string: the
 * test runner rewrites named functions in a way the page cannot run.
 */
function seenScript(name: string): string {
  return `(async () => {
    const m = window.meeting;
    const p = m.participants.joined.toArray().find((x) => x.name === ${JSON.stringify(name)});
    if (!p) return null;
    const inbound = async (track) => {
      if (!track) return null;
      for (const pc of window.__pcs) {
        const receiver = pc.getReceivers().find((r) => r.track && r.track.id === track.id);
        if (!receiver) continue;
        // A stream can have two reports (packets that came before the answer was applied open one
        // of their own): the live one has the most.
        let out = null;
        (await receiver.getStats()).forEach((s) => {
          if (s.type !== 'inbound-rtp') return;
          if (!out || (s.packetsReceived ?? 0) > out.packets) out = { packets: s.packetsReceived ?? 0, frames: s.framesDecoded ?? 0, width: s.frameWidth ?? 0 };
        });
        if (out) return out;
      }
      return null;
    };
    const screen = p.screenShareTracks && p.screenShareTracks.video;
    return {
      videoEnabled: p.videoEnabled,
      audioEnabled: p.audioEnabled,
      screenShareEnabled: p.screenShareEnabled,
      video: await inbound(p.videoEnabled ? p.videoTrack : null),
      audio: await inbound(p.audioEnabled ? p.audioTrack : null),
      screen: await inbound(p.screenShareEnabled ? screen : null),
    };
  })()`;
}

interface Seen {
  videoEnabled: boolean;
  audioEnabled: boolean;
  screenShareEnabled: boolean;
  video: { packets: number; frames: number; width: number } | null;
  audio: { packets: number; frames: number; width: number } | null;
  screen: { packets: number; frames: number; width: number } | null;
}

// Skipped on a machine without Chromium, except in CI (.ci/run installs it there).
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI).each(SDKS)('$name: media through the emulator', SIDE_BY_SIDE, (sdk: Sdk) => {
  let emu: RunningEmulator;
  let frontend: Frontend;

  const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

  const person = (meetingId: string, name: string, preset?: string): Promise<Person> => addPerson(emu, meetingId, name, preset);

  /** A page of the frontend (its peer connections kept, to read what chrome://webrtc-internals shows): init() with the camera and microphone as asked, then join(). */
  const join = (p: Person, media: { audio: boolean; video: boolean }): Promise<Page> => joinPage(sdk, frontend, p, media);

  async function seen(page: Page, name: string): Promise<Seen | null> {
    return page.evaluate<Seen | null>(seenScript(name));
  }

  /** Waits until what the page sees of `name` satisfies `ok`; answers the last view. */
  function until(page: Page, name: string, ok: (s: Seen) => boolean): Promise<Seen | null> {
    return readUntil(
      () => seen(page, name),
      (s) => s !== null && ok(s),
      WAIT,
    );
  }

  /** Frames decoded keep coming: two readings a while apart. */
  async function advancing(page: Page, name: string, key: 'video' | 'screen'): Promise<void> {
    const first = await until(page, name, (s) => (s[key]?.frames ?? 0) > 0);
    expect(first?.[key]?.frames, `${name}'s ${key} decodes`).toBeGreaterThan(0);
    const later = await until(page, name, (s) => (s[key]?.frames ?? 0) > first![key]!.frames + 5);
    expect(later?.[key]?.frames, `${name}'s ${key} keeps decoding`).toBeGreaterThan(first![key]!.frames + 5);
  }

  const health = (): Promise<MediaHeld> => mediaHeld(emu);

  /** Ends the pages (given back, page-pool.ts) and waits until the emulator has released what they held. */
  async function giveBack(...open: Page[]): Promise<void> {
    for (const page of open) await givePage(page);
    await releasedAfterClose(emu, WAIT);
  }

  beforeAll(async () => {
    emu = await startEmulator({ seed: `media ${sdk.global}`, clock: 'manual', tlsPort: 0 });
    frontend = await Frontend.start(sdk, emu);
  }, 60_000);

  // A failed test leaves no page behind for the next one to count.
  afterEach(async () => {
    await frontend?.endPages();
    await releasedAfterClose(emu, WAIT);
  }, 2 * WAIT);

  afterAll(() =>
    endAll(
      () => frontend?.close(),
      () => emu?.close(),
    ),
  );

  it.sequential(
    'a page joins with camera and microphone on; another page decodes its video and receives its audio; turning them off and on shows there; a REST mute turns the microphone off',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Media' });
      const [ada, bob] = [await person(meeting.id, 'Ada'), await person(meeting.id, 'Bob')];
      const a = await join(ada, { audio: true, video: true });
      const b = await join(bob, { audio: false, video: false });
      expect(frontend.pageErrors).toEqual([]);

      await advancing(b, 'Ada', 'video');
      const heard = await until(b, 'Ada', (s) => (s.audio?.packets ?? 0) > 20);
      expect(heard?.audio?.packets, "Ada's audio arrives").toBeGreaterThan(20);

      await a.evaluate(() => (globalThis as unknown as { meeting: { self: { disableVideo(): Promise<void> } } }).meeting.self.disableVideo());
      expect((await until(b, 'Ada', (s) => !s.videoEnabled))?.videoEnabled).toBe(false);
      await a.evaluate(() => (globalThis as unknown as { meeting: { self: { enableVideo(): Promise<void> } } }).meeting.self.enableVideo());
      expect((await until(b, 'Ada', (s) => s.videoEnabled))?.videoEnabled).toBe(true);
      await advancing(b, 'Ada', 'video');

      await a.evaluate(() => (globalThis as unknown as { meeting: { self: { disableAudio(): Promise<void> } } }).meeting.self.disableAudio());
      expect((await until(b, 'Ada', (s) => !s.audioEnabled))?.audioEnabled).toBe(false);
      await a.evaluate(() => (globalThis as unknown as { meeting: { self: { enableAudio(): Promise<void> } } }).meeting.self.enableAudio());
      expect((await until(b, 'Ada', (s) => s.audioEnabled))?.audioEnabled).toBe(true);

      // The host mutes Ada from a backend: her page turns its microphone off, and Bob sees it.
      await rest('POST', `/v2/meetings/${meeting.id}/active-session/mute`, { participant_ids: [ada.id] });
      const selfAudio = async () => a.evaluate(() => (globalThis as unknown as { meeting: { self: { audioEnabled: boolean } } }).meeting.self.audioEnabled);
      const deadline = Date.now() + WAIT;
      while ((await selfAudio()) && Date.now() < deadline) await a.waitForTimeout(100);
      expect(await selfAudio()).toBe(false);
      expect((await until(b, 'Ada', (s) => !s.audioEnabled))?.audioEnabled).toBe(false);
      expect(frontend.pageErrors).toEqual([]);

      await giveBack(a, b);
      expect(await health()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    },
    6 * WAIT,
  );

  it.sequential(
    'a screen share appears in the other page as a screen-share track that decodes',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Screens' });
      const [cleo, dan] = [await person(meeting.id, 'Cleo'), await person(meeting.id, 'Dan')];
      const c = await join(cleo, { audio: false, video: false });
      const d = await join(dan, { audio: false, video: false });
      await c.evaluate(() => (globalThis as unknown as { meeting: { self: { enableScreenShare(): Promise<void> } } }).meeting.self.enableScreenShare());
      expect((await until(d, 'Cleo', (s) => s.screenShareEnabled))?.screenShareEnabled).toBe(true);
      await advancing(d, 'Cleo', 'screen');
      expect(frontend.pageErrors).toEqual([]);
      await giveBack(c, d);
      expect(await health()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    },
    4 * WAIT,
  );

  it.sequential(
    "a scripted participant publishes the sample clip: the page decodes the bot's 320×180 video and hears it",
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bots' });
      const [eve, bot] = [await person(meeting.id, 'Eve'), await person(meeting.id, 'Robo')];
      const e = await join(eve, { audio: false, video: false });
      const joined = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ media: { audio: true, video: true } }),
      });
      expect(joined.status).toBe(200);
      await advancing(e, 'Robo', 'video');
      expect((await seen(e, 'Robo'))?.video?.width).toBe(320);
      expect((await until(e, 'Robo', (s) => (s.audio?.packets ?? 0) > 20))?.audio?.packets).toBeGreaterThan(20);

      const off = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/media`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ video: false }),
      });
      expect(await off.json()).toEqual({ audio: true, video: false });
      expect((await until(e, 'Robo', (s) => !s.videoEnabled))?.videoEnabled).toBe(false);

      await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/leave`, { method: 'POST' });
      await giveBack(e);
      expect(await health()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    },
    4 * WAIT,
  );

  it.sequential.each([
    ['a REST kick of the publishing page', 'kick'],
    ["a reset of the page's organization", 'org-reset'],
    ['a reset of the emulator', 'reset'],
  ] as const)(
    '%s frees every transport, producer and consumer the pages held',
    async (_what, how) => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: `Freed by ${how}` });
      const [fay, gus, bot] = [await person(meeting.id, 'Fay'), await person(meeting.id, 'Gus'), await person(meeting.id, 'Bot')];
      await join(fay, { audio: true, video: true });
      const g = await join(gus, { audio: true, video: false });
      const joined = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ media: { audio: true, video: true } }),
      });
      expect(joined.status).toBe(200);
      // Both pages receive: the other page's tracks and the bot's.
      await advancing(g, 'Fay', 'video');
      await advancing(g, 'Bot', 'video');
      const before = await health();
      expect(before.transports).toBe(4);
      // Fay's camera and microphone, Gus's microphone, the bot's two; the Dyte SDK may publish its
      // camera a second time in another codec for viewers that cannot decode the first.
      expect(before.producers).toBeGreaterThanOrEqual(5);
      expect(before.consumers).toBeGreaterThanOrEqual(5);

      if (how === 'kick') await rest('POST', `/v2/meetings/${meeting.id}/active-session/kick`, { participant_ids: [fay.id, gus.id, bot.id] });
      else {
        const res = await fetch(`${emu.url}/_emulator/${how === 'reset' ? 'reset' : `orgs/${emu.orgId}/reset`}`, { method: 'POST' });
        expect(res.status).toBe(200);
      }
      const deadline = Date.now() + WAIT;
      while (Date.now() < deadline && (await health()).transports + (await health()).producers > 0) await new Promise((r) => setTimeout(r, 100));
      expect(await health()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    },
    4 * WAIT,
  );

  it.sequential(
    'a webinar viewer publishes nothing off the stage; let on by the presenter, it joins the stage, turns its camera on, and the presenter decodes its video',
    async () => {
      // A webinar viewer who may ask for the stage, and publish once on it (made here: other tests reset the organization).
      await addPreset(emu, 'webinar_speaker', 'webinar_viewer', {
        media: { audio: { can_produce: 'CAN_REQUEST' }, video: { can_produce: 'CAN_REQUEST' }, screenshare: { can_produce: 'NOT_ALLOWED' } },
      });
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' });
      const [hana, vic] = [await person(meeting.id, 'Hana', 'webinar_presenter'), await person(meeting.id, 'Vic', 'webinar_speaker')];
      const h = await join(hana, { audio: false, video: false });
      const v = await join(vic, { audio: false, video: false });
      type Stage = { status: string; requestAccess(): Promise<void>; grantAccess(ids: string[]): Promise<void>; join(): Promise<void> };
      type StageWindow = {
        meeting: {
          stage: Stage;
          self: { enableVideo(): Promise<void> };
          participants: { joined: { toArray(): { name: string; userId: string; stageStatus: string }[] } };
        };
      };
      const stageOf = (page: Page) => page.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.status);
      const waitFor = async (read: () => Promise<unknown>, want: unknown) => {
        const deadline = Date.now() + WAIT;
        while ((await read()) !== want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(await read()).toBe(want);
      };
      expect(await stageOf(v)).toBe('OFF_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.self.enableVideo().catch(() => undefined));
      expect((await health()).producers).toBe(0);

      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.requestAccess());
      const vicAsHost = () =>
        h.evaluate(() => (globalThis as unknown as StageWindow).meeting.participants.joined.toArray().find((p) => p.name === 'Vic')?.stageStatus);
      await waitFor(vicAsHost, 'REQUESTED_TO_JOIN_STAGE');
      await h.evaluate(() => {
        const m = (globalThis as unknown as StageWindow).meeting;
        return m.stage.grantAccess([m.participants.joined.toArray().find((p) => p.name === 'Vic')!.userId]);
      });
      await waitFor(() => stageOf(v), 'ACCEPTED_TO_JOIN_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.stage.join());
      await waitFor(() => stageOf(v), 'ON_STAGE');
      await waitFor(vicAsHost, 'ON_STAGE');
      await v.evaluate(() => (globalThis as unknown as StageWindow).meeting.self.enableVideo());
      await advancing(h, 'Vic', 'video');
      expect((await health()).producers).toBe(1);
      expect(frontend.pageErrors).toEqual([]);
      await giveBack(h, v);
    },
    4 * WAIT,
  );

  it.sequential(
    'a viewer preset may not publish: its camera stays off, nothing reaches the emulator, and the page shows no error',
    async () => {
      const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' });
      const viewer = await person(meeting.id, 'Vic', 'webinar_viewer');
      const v = await join(viewer, { audio: false, video: false });
      const video = await v.evaluate(async () => {
        const self = (globalThis as unknown as { meeting: { self: { enableVideo(): Promise<void>; videoEnabled: boolean } } }).meeting.self;
        await self.enableVideo().catch(() => undefined);
        return self.videoEnabled;
      });
      expect(video).toBe(false);
      expect((await health()).producers).toBe(0);
      expect(frontend.pageErrors).toEqual([]);
      await giveBack(v);
    },
    2 * WAIT,
  );
});

// Media off (--media off, for machines whose network carries no UDP): a page that turns its camera
// on keeps its own preview and sees no error, and nothing is forwarded to anyone.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI).each(SDKS)('$name: media off', SIDE_BY_SIDE, (sdk: Sdk) => {
  let emu: RunningEmulator;
  let frontend: Frontend;

  beforeAll(async () => {
    emu = await startEmulator({ seed: `media off ${sdk.global}`, clock: 'manual', tlsPort: 0, media: 'off' });
    frontend = await Frontend.start(sdk, emu);
  }, 60_000);

  afterAll(() =>
    endAll(
      () => frontend?.close(),
      () => emu?.close(),
    ),
  );

  it.sequential(
    "a page's own camera preview keeps working; the other page gets no video; the emulator forwards nothing",
    async () => {
      const headers = { authorization: emu.authHeader, 'content-type': 'application/json' };
      const post = async <T>(route: string, body: unknown): Promise<T> =>
        ((await (await fetch(`${emu.url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { data: T }).data;
      const meeting = await post<{ id: string }>('/v2/meetings', { title: 'Offline media' });
      const open = async (name: string, video: boolean): Promise<Page> => {
        const p = await post<{ token: string }>(`/v2/meetings/${meeting.id}/participants`, {
          name,
          preset_name: 'group_call_host',
          custom_participant_id: name,
        });
        return joinPage(sdk, frontend, { name, token: p.token }, { audio: false, video });
      };
      const ada = await open('ada', true);
      const bob = await open('bob', false);
      const preview = await ada.evaluate(
        `(() => { const s = window.meeting.self; return { video: s.videoEnabled, track: s.videoTrack ? s.videoTrack.readyState : null }; })()`,
      );
      expect(preview).toEqual({ video: true, track: 'live' });
      const seenByBob = await bob.evaluate(
        `(() => { const p = window.meeting.participants.joined.toArray().find((x) => x.name === 'ada'); return p ? Boolean(p.videoTrack) : null; })()`,
      );
      expect(seenByBob).toBe(false);
      const health = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { mode: string; consumers: number } };
      expect(health.media).toMatchObject({ mode: 'off', consumers: 0 });
      expect(frontend.pageErrors).toEqual([]);
      await givePage(ada);
      await givePage(bob);
    },
    4 * WAIT,
  );
});
