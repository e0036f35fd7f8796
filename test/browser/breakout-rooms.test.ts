// Breakout rooms with the service's real web SDKs in Debian's Chromium (meeting.connectedMeetings):
// a host page opens a room and moves another page into it; that page leaves, starts anew with the
// token it was handed and joins the room (its meeting.meta.meetingId is the room's), comes back to
// the parent the same way, and the host closes the room. Checked where the pages see it (their
// connectedMeetings state) and where a backend does (the REST API, the webhooks).
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { CHROMIUM, SDKS, Frontend, addPerson, readUntil, restOf, type Person, type Sdk } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow. */
const WAIT = 30_000;

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI).each(SDKS)('$name: breakout rooms', (sdk: Sdk) => {
  let emu: RunningEmulator;
  let frontend: Frontend;

  const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

  /**
   * A page of the frontend: init() then join(). `window.meeting` follows the page into each meeting
   * the SDK switches it to (the SDK hands the new meeting over in "meetingChanged").
   */
  async function join(p: Person): Promise<Page> {
    const page = await frontend.open(p);
    await page.evaluate(
      `(async () => {
        window.follow = (mm) => mm.connectedMeetings.on('meetingChanged', (next) => { window.meeting = next; window.follow(next); });
        window.meeting = await ${sdk.global}.init({ authToken: ${JSON.stringify(p.token)}, baseURI: ${JSON.stringify(frontend.base)}, defaults: { audio: false, video: false } });
        window.follow(window.meeting);
        await window.meeting.join();
      })()`,
    );
    return page;
  }

  function run<T>(page: Page, body: string): Promise<T> {
    return page.evaluate<T>(`(async () => {
      const m = window.meeting;
      const who = (name) => m.participants.joined.toArray().find((x) => x.name === name);
      const family = () => ({
        parent: (m.connectedMeetings.parentMeeting?.participants ?? []).map((p) => p.displayName),
        rooms: m.connectedMeetings.meetings.map((r) => [r.title, r.participants.map((p) => p.displayName)]),
      });
      ${body}
    })()`);
  }

  const until = <T>(page: Page, body: string, ok: (v: T) => boolean): Promise<T> => readUntil(() => run<T>(page, body), ok, WAIT);

  const same = (expected: unknown) => (v: unknown) => JSON.stringify(v) === JSON.stringify(expected);

  beforeAll(async () => {
    emu = await startEmulator({ seed: `breakout rooms ${sdk.global}`, clock: 'manual', tlsPort: 0 });
    frontend = await Frontend.start(sdk, emu);
    await rest('POST', '/v2/webhooks', { name: 'moves', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantJoined', 'meeting.participantLeft'] });
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

  it(
    'a host opens a room and moves a page into it; the page joins the room, comes back to the parent, and the host closes the room',
    async () => {
      const parent = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Workshop' });
      const ada = await addPerson(emu, parent.id, 'Ada');
      const bob = await addPerson(emu, parent.id, 'Bob', 'group_call_participant');
      const a = await join(ada);
      const b = await join(bob);
      await until<boolean>(a, `return !!who('Bob');`, Boolean);
      expect(await until(b, `return family();`, same({ parent: ['Ada', 'Bob'], rooms: [] }))).toEqual({ parent: ['Ada', 'Bob'], rooms: [] });

      const created = await run<{ id: string; title: string }[]>(a, `return await m.connectedMeetings.createMeetings([{ title: 'Design' }]);`);
      expect(created.map((r) => r.title)).toEqual(['Design']);
      const room = created[0]!.id;
      expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ title: 'Design', status: 'ACTIVE' });
      expect(await until(b, `return family();`, same({ parent: ['Ada', 'Bob'], rooms: [['Design', []]] }))).toEqual({
        parent: ['Ada', 'Bob'],
        rooms: [['Design', []]],
      });

      const moved = await run(
        a,
        `return await m.connectedMeetings.moveParticipants(${JSON.stringify(parent.id)}, ${JSON.stringify(room)}, [who('Bob').userId]);`,
      );
      expect(moved).toEqual({ success: true });
      expect(await until<string>(b, `return m.self.roomState === 'joined' ? m.meta.meetingId : '';`, (v) => v === room)).toBe(room);
      expect(await until(a, `return family();`, same({ parent: ['Ada'], rooms: [['Design', ['Bob']]] }))).toEqual({
        parent: ['Ada'],
        rooms: [['Design', ['Bob']]],
      });
      expect(await until(b, `return family();`, same({ parent: ['Ada'], rooms: [['Design', ['Bob']]] }))).toEqual({
        parent: ['Ada'],
        rooms: [['Design', ['Bob']]],
      });
      const inRoom = await rest<{ live_participants: number }>('GET', `/v2/meetings/${room}/active-session`);
      expect(inRoom.live_participants).toBe(1);

      const back = await run(
        a,
        `const r = m.connectedMeetings.meetings[0]; return await m.connectedMeetings.moveParticipants(r.id, ${JSON.stringify(parent.id)}, r.participants.map((p) => p.id));`,
      );
      expect(back).toEqual({ success: true });
      expect(await until<string>(b, `return m.self.roomState === 'joined' ? m.meta.meetingId : '';`, (v) => v === parent.id)).toBe(parent.id);
      expect(await until(a, `return family();`, same({ parent: ['Ada', 'Bob'], rooms: [['Design', []]] }))).toEqual({
        parent: ['Ada', 'Bob'],
        rooms: [['Design', []]],
      });

      await run(a, `await m.connectedMeetings.deleteMeetings([${JSON.stringify(room)}]); return null;`);
      expect(await until(b, `return family();`, same({ parent: ['Ada', 'Bob'], rooms: [] }))).toEqual({ parent: ['Ada', 'Bob'], rooms: [] });
      expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ status: 'INACTIVE' });

      const hooks = (await emu.deliveries()).reverse().map((d) => {
        const p = d.payload as { meeting: { id: string }; participant: { customParticipantId: string } };
        return `${d.event} ${p.meeting.id === room ? 'room' : 'parent'} ${p.participant.customParticipantId}`;
      });
      expect(hooks).toEqual([
        'meeting.participantJoined parent ada',
        'meeting.participantJoined parent bob',
        'meeting.participantLeft parent bob',
        'meeting.participantJoined room bob',
        'meeting.participantLeft room bob',
        'meeting.participantJoined parent bob',
      ]);
      expect(frontend.pageErrors).toEqual([]);
    },
    8 * WAIT,
  );
});
