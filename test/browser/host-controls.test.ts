// A host's menu, driven from the page with the service's real web SDKs in Debian's Chromium: remove
// one participant, end the meeting for all, turn another's (and everyone's) microphone and camera
// off, pin for everyone, record, go live. Each is checked where a user sees it (the pages' SDK
// state) and where their backend does (the REST API, the webhooks), as its REST twin would be.
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { CHROMIUM, SDKS, Frontend, addPerson, callStatsRunning, readUntil, restOf, type Person, type Sdk, SIDE_BY_SIDE } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow. */
const WAIT = 30_000;

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI).each(SDKS)('$name: host controls from the page', SIDE_BY_SIDE, (sdk: Sdk) => {
  let emu: RunningEmulator;
  let frontend: Frontend;

  const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

  /** A page of the frontend: init() with the camera and microphone as asked, then join(). */
  async function join(p: Person, media = { audio: false, video: false }): Promise<Page> {
    const page = await frontend.open(p);
    await page.evaluate(
      `(async () => { window.meeting = await ${sdk.global}.init({ authToken: ${JSON.stringify(p.token)}, baseURI: ${JSON.stringify(frontend.base)}, defaults: ${JSON.stringify(media)} }); await window.meeting.join(); })()`,
    );
    return page;
  }

  /** Runs `body` in the page, with `m` the meeting and `who(name)` a participant the page sees; answers its JSON value. */
  function run<T>(page: Page, body: string): Promise<T> {
    return page.evaluate<T>(`(async () => {
      const m = window.meeting;
      const who = (name) => m.participants.joined.toArray().find((x) => x.name === name);
      ${body}
    })()`);
  }

  /** Waits until `body` (as in run) answers something `ok` accepts; answers the last value. */
  const until = <T>(page: Page, body: string, ok: (v: T) => boolean): Promise<T> => readUntil(() => run<T>(page, body), ok, WAIT);

  async function meetingWith(title: string, ...people: [string, string?][]): Promise<{ id: string; people: Person[] }> {
    const meeting = await rest<{ id: string }>('POST', '/v2/meetings', { title });
    const out: Person[] = [];
    for (const [name, preset] of people) out.push(await addPerson(emu, meeting.id, name, preset));
    return { id: meeting.id, people: out };
  }

  /** The webhooks sent so far about one meeting or livestream (by id), oldest first: event and the field that tells most. */
  async function hooks(subjectId: string): Promise<string[]> {
    return (await emu.deliveries())
      .filter((d) => JSON.stringify(d.payload).includes(subjectId))
      .reverse()
      .map((d) => {
        const p = d.payload as { reason?: string; status?: string; participant?: { customParticipantId?: string }; recording?: { status: string } };
        return `${d.event} ${p.participant?.customParticipantId ?? p.recording?.status ?? p.status ?? p.reason ?? ''}`.trim();
      });
  }

  beforeAll(async () => {
    // The simulator's livestreams: LIVE on its timer, so that the clock's advance decides when (the room's own picture is test/browser/livestream.test.ts's).
    emu = await startEmulator({ seed: `host controls ${sdk.global}`, clock: 'manual', tlsPort: 0, livestreams: 'sample' });
    frontend = await Frontend.start(sdk, emu);
    await rest('POST', '/v2/webhooks', {
      name: 'host controls',
      url: 'http://127.0.0.1:9/hook',
      events: ['meeting.participantLeft', 'meeting.ended', 'recording.statusUpdate', 'livestreaming.statusUpdate'],
    });
  }, 60_000);

  afterEach(async () => {
    await frontend?.endPages();
  });

  afterAll(() =>
    endAll(
      () => frontend?.close(),
      () => emu?.close(),
    ),
  );

  it.sequential(
    'participant.kick(): the removed page ends as kicked, the host sees them leave, and the REST session and participantLeft agree',
    async () => {
      const { id, people } = await meetingWith('Kick', ['Ada'], ['Bob']);
      const [ada, bob] = people as [Person, Person];
      const a = await join(ada);
      const b = await join(bob);
      await until<boolean>(a, `return !!who('Bob');`, Boolean);
      // Kicked before its call statistics start, Bob's page would throw "closed", as it would against the real service (callStatsRunning).
      await callStatsRunning(b, WAIT);

      await run(a, `await who('Bob').kick(); return null;`);
      expect(await until<string>(b, `return m.self.roomState;`, (s) => s === 'kicked')).toBe('kicked');
      expect(await until<boolean>(a, `return !who('Bob');`, Boolean)).toBe(true);
      const session = await rest<{ live_participants: number }>('GET', `/v2/meetings/${id}/active-session`);
      expect(session.live_participants).toBe(1);
      expect(await hooks(id)).toEqual(['meeting.participantLeft bob']);
      expect(await run<string>(a, `return m.self.roomState;`)).toBe('joined');
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it.sequential(
    'participants.kickAll(): every page ends, the host’s own included, and the session ends as a host ending it (HOST_ENDED_MEETING)',
    async () => {
      const { id, people } = await meetingWith('Kick all', ['Ada'], ['Bob']);
      const [ada, bob] = people as [Person, Person];
      const a = await join(ada);
      const b = await join(bob);
      await until<boolean>(a, `return !!who('Bob');`, Boolean);
      // As for a kick: both pages end, and neither may end before its call statistics start.
      await callStatsRunning(a, WAIT);
      await callStatsRunning(b, WAIT);

      await run(a, `await m.participants.kickAll(); return null;`);
      expect(await until<string>(b, `return m.self.roomState;`, (s) => s === 'ended')).toBe('ended');
      expect(await until<string>(a, `return m.self.roomState;`, (s) => s === 'ended')).toBe('ended');
      const sessions = await rest<{ sessions: { status: string }[] }>('GET', `/v2/sessions?associated_id=${id}`);
      expect(sessions.sessions.map((s) => s.status)).toEqual(['ENDED']);
      const sent = await hooks(id);
      expect(sent.slice(-1)).toEqual(['meeting.ended HOST_ENDED_MEETING']);
      expect(sent.filter((e) => e.startsWith('meeting.participantLeft')).sort()).toEqual(['meeting.participantLeft ada', 'meeting.participantLeft bob']);
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it.sequential(
    "disableAudio(), disableVideo(), disableAllAudio() and disableAllVideo(): the target page's microphone and camera go off, and the host's stay on",
    async () => {
      const { id, people } = await meetingWith('Mute', ['Ada'], ['Bob']);
      const [ada, bob] = people as [Person, Person];
      const a = await join(ada, { audio: true, video: true });
      const b = await join(bob, { audio: true, video: true });
      const bobSelf = `return { audio: m.self.audioEnabled, video: m.self.videoEnabled };`;
      const bobAsAdaSees = `const p = who('Bob'); return p ? { audio: p.audioEnabled, video: p.videoEnabled } : null;`;
      expect(await until(a, bobAsAdaSees, (v) => JSON.stringify(v) === '{"audio":true,"video":true}')).toEqual({ audio: true, video: true });

      await run(a, `await who('Bob').disableAudio(); return null;`);
      expect(await until(b, bobSelf, (v: { audio: boolean }) => !v.audio)).toEqual({ audio: false, video: true });
      // The REST session keeps the host's mute, as it keeps a REST mute: an audio_off event in Bob's stats.
      const session = await rest<{ id: string }>('GET', `/v2/meetings/${id}/active-session`);
      const stats = await rest<{ participant: { peer_stats: { events: { type: string }[] } } }>(
        'GET',
        `/v2/sessions/${session.id}/participants/${bob.id}?filters=events`,
      );
      expect(stats.participant.peer_stats.events.map((e) => e.type)).toEqual(['call_join', 'audio_off']);
      await run(a, `await who('Bob').disableVideo(); return null;`);
      expect(await until(b, bobSelf, (v: { video: boolean }) => !v.video)).toEqual({ audio: false, video: false });
      expect(await until(a, bobAsAdaSees, (v: { audio: boolean; video: boolean } | null) => v !== null && !v.audio && !v.video)).toEqual({
        audio: false,
        video: false,
      });

      // Bob may turn them on again, and the host turns everyone's off.
      await run(b, `await m.self.enableAudio(); await m.self.enableVideo(); return null;`);
      expect(await until(a, bobAsAdaSees, (v: { audio: boolean; video: boolean } | null) => !!v?.audio && !!v.video)).toEqual({ audio: true, video: true });
      await run(a, `await m.participants.disableAllAudio(true); await m.participants.disableAllVideo(); return null;`);
      expect(await until(b, bobSelf, (v: { audio: boolean; video: boolean }) => !v.audio && !v.video)).toEqual({ audio: false, video: false });
      expect(await run(a, `return { audio: m.self.audioEnabled, video: m.self.videoEnabled };`)).toEqual({ audio: true, video: true });
      expect(frontend.pageErrors).toEqual([]);
    },
    6 * WAIT,
  );

  it.sequential(
    'pin() and unpin(): every page sees the pin, a page that joins later too',
    async () => {
      const { people } = await meetingWith('Pin', ['Ada'], ['Bob'], ['Cai', 'group_call_participant']);
      const [ada, bob, cai] = people as [Person, Person, Person];
      const a = await join(ada);
      const b = await join(bob);
      await until<boolean>(a, `return !!who('Bob');`, Boolean);

      await run(a, `await who('Bob').pin(); return null;`);
      expect(await until<boolean>(a, `return who('Bob').isPinned;`, Boolean)).toBe(true);
      expect(await until<boolean>(b, `return m.self.isPinned;`, Boolean)).toBe(true);
      const c = await join(cai);
      expect(await until<boolean>(c, `const p = who('Bob'); return !!p && p.isPinned;`, Boolean)).toBe(true);
      expect(await run<string[]>(c, `return m.participants.pinned.toArray().map((p) => p.name);`)).toEqual(['Bob']);

      await run(a, `await who('Bob').unpin(); return null;`);
      expect(await until<boolean>(c, `return who('Bob').isPinned;`, (v) => !v)).toBe(false);
      expect(await until<boolean>(b, `return m.self.isPinned;`, (v) => !v)).toBe(false);
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it.sequential(
    'recording.start(), pause(), resume() and stop() drive the REST recording and its webhooks; every page sees the state',
    async () => {
      const { id, people } = await meetingWith('Record', ['Ada'], ['Bob']);
      const [ada, bob] = people as [Person, Person];
      const a = await join(ada);
      const b = await join(bob);
      const state = `return m.recording.recordingState;`;

      await run(a, `await m.recording.start(); return null;`);
      const [recording] = await rest<{ id: string }[]>('GET', `/v2/recordings?meeting_id=${id}`);
      await emu.advance(10_000); // the recorder joins
      expect(await until<string>(b, state, (s) => s === 'RECORDING')).toBe('RECORDING');
      expect(await until<string>(a, state, (s) => s === 'RECORDING')).toBe('RECORDING');
      await run(a, `await m.recording.pause(); return null;`);
      expect(await until<string>(b, state, (s) => s === 'PAUSED')).toBe('PAUSED');
      await run(a, `await m.recording.resume(); return null;`);
      expect(await until<string>(b, state, (s) => s === 'RECORDING')).toBe('RECORDING');
      await run(a, `await m.recording.stop(); return null;`);
      expect(await until<string>(b, state, (s) => s === 'IDLE')).toBe('IDLE');
      await emu.advance(60_000); // the upload
      expect(await rest<{ status: string; stop_reason: { caller: { type: string; name: string } } }>('GET', `/v2/recordings/${recording!.id}`)).toMatchObject({
        status: 'UPLOADED',
        stop_reason: { caller: { type: 'USER', name: 'Ada' } },
      });
      expect((await hooks(id)).filter((e) => e.startsWith('recording'))).toEqual([
        'recording.statusUpdate INVOKED',
        'recording.statusUpdate RECORDING',
        'recording.statusUpdate PAUSED',
        'recording.statusUpdate RECORDING',
        'recording.statusUpdate UPLOADING',
        'recording.statusUpdate UPLOADED',
      ]);
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it.sequential(
    "livestream.start() and stop() from a livestream host: the REST livestream goes LIVE and OFFLINE, a viewer's page sees it LIVE with the playback URL, and a start while one is LIVE is refused",
    async () => {
      const { id, people } = await meetingWith('Live', ['Ada', 'livestream_host'], ['Val', 'livestream_viewer']);
      const [ada, val] = people as [Person, Person];
      const a = await join(ada);
      const v = await join(val);
      const state = `return m.livestream ? { state: m.livestream.state, url: m.livestream.playbackUrl || null } : null;`;

      await run(a, `await m.livestream.start(); return null;`);
      await emu.advance(60_000); // ingest begins
      const live = await rest<{ status: string; playback_url: string }>('GET', `/v2/meetings/${id}/active-livestream`);
      expect(live.status).toBe('LIVE');
      expect(await until(v, state, (s: { state: string } | null) => s?.state === 'LIVESTREAMING')).toEqual({ state: 'LIVESTREAMING', url: live.playback_url });
      expect(await until(a, state, (s: { state: string } | null) => s?.state === 'LIVESTREAMING')).toEqual({ state: 'LIVESTREAMING', url: live.playback_url });

      await run(a, `await m.livestream.stop(); return null;`);
      expect(await until(v, state, (s: { state: string } | null) => s?.state === 'IDLE')).toEqual({ state: 'IDLE', url: null });
      const all = await rest<{ livestreams: { status: string }[] }>('GET', `/v2/meetings/${id}/livestream`);
      expect(JSON.stringify(all)).toContain('OFFLINE');
      // A livestream's webhook names the stream, not the meeting.
      const stream = await rest<{ livestreams: { id: string }[] }>('GET', `/v2/meetings/${id}/livestream`);
      expect(await hooks(stream.livestreams[0]!.id)).toEqual([
        'livestreaming.statusUpdate OFFLINE',
        'livestreaming.statusUpdate LIVE',
        'livestreaming.statusUpdate OFFLINE',
      ]);

      // A second start while one is LIVE is refused (the REST API's 409), and leaves the one LIVE alone.
      const again = await rest<{ id: string }>('POST', `/v2/meetings/${id}/livestreams`, {});
      await emu.advance(60_000);
      expect(await run<string>(a, `return await m.livestream.start().then(() => 'started', (e) => e.message);`)).toMatch(/Error while starting livestream/);
      expect(await rest<{ id: string; status: string }>('GET', `/v2/meetings/${id}/active-livestream`)).toMatchObject({ id: again.id, status: 'LIVE' });
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it.sequential(
    'a participant whose preset has no host permission is refused by the SDK, and nothing changes',
    async () => {
      const { id, people } = await meetingWith('Refused', ['Ada'], ['Cai', 'group_call_participant']);
      const [ada, cai] = people as [Person, Person];
      await join(ada);
      const c = await join(cai);
      await until<boolean>(c, `return !!who('Ada');`, Boolean);
      const outcomes = await run<string[]>(
        c,
        `const out = [];
        for (const act of [() => who('Ada').kick(), () => who('Ada').pin(), () => who('Ada').disableAudio(), () => m.participants.kickAll(), () => m.recording.start()])
          out.push(await act().then(() => 'done', (e) => e.code || e.message));
        return out;`,
      );
      expect(outcomes.every((o) => o !== 'done')).toBe(true);
      expect((await rest<{ live_participants: number }>('GET', `/v2/meetings/${id}/active-session`)).live_participants).toBe(2);
      expect(await rest<unknown[]>('GET', `/v2/recordings?meeting_id=${id}`)).toEqual([]);
    },
    2 * WAIT,
  );
});
