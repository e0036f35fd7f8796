// Network trouble on demand (docs/bad-network.md), driven from Node with the SDK's own frames
// against a listening emulator on the manual clock: a page's signalling socket dropped or refused,
// the reconnect window a lost page gets before its participant counts as left, and what REST, the
// webhooks, the other pages, the live feed and the request journal say meanwhile, and the stage a
// page finds on its return; the degrading scenarios as the control API shows them; bad input that
// applies nothing; and nothing left after a reset.
// A network test: real sockets on 127.0.0.1. What the SDKs themselves do is test/browser/network.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type NetworkState, type RunningEmulator } from '../../../src/index.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import type { JournalEntry } from '../../../src/journal/request-journal.js';
import type { FeedMessage } from '../../../src/ui/live-feed.js';
import { PageSockets, Refused, SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, addPreset, controlOf } from '../../helpers/web-sdk.js';

const { room: ROOM, chat: CHAT } = SDK_EVENTS;
/** socket.room.StageType */
const ON_STAGE = 1;
const OFF_STAGE = 4;
/** How long a lost page keeps its participant in the meeting (docs/bad-network.md). */
const WINDOW_MS = 60_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(START + ms).toISOString();

let emu: RunningEmulator;

interface Person {
  id: string;
  token: string;
  name: string;
}

async function rest<T>(method: string, route: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${emu.url}${route}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { data: T };
  return { status: res.status, data: json.data };
}

async function control<T = NetworkState>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${emu.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function meeting(title = 'Standup'): Promise<string> {
  return (await rest<{ id: string }>('POST', '/v2/meetings', { title })).data.id;
}

async function person(meetingId: string, name: string): Promise<Person> {
  const { data } = await rest<{ id: string; token: string }>('POST', `/v2/meetings/${meetingId}/participants`, {
    name,
    preset_name: 'group_call_host',
    custom_participant_id: name.toLowerCase(),
  });
  return { id: data.id, token: data.token, name };
}

const sockets = new PageSockets();
const open = (p: Person, meetingId: string): Promise<SdkSocket> => sockets.open(emu.url, meetingId, p);

/** A participant's page, joined. */
async function joined(p: Person, meetingId: string): Promise<SdkSocket> {
  const s = await open(p, meetingId);
  await s.joinRoom(p);
  return s;
}

const network = (m: string, pid: string | null, body: unknown) =>
  control('POST', pid ? `/_emulator/meetings/${m}/participants/${pid}/network` : `/_emulator/meetings/${m}/network`, body);
const networkOf = (m: string, pid?: string) =>
  control('GET', pid ? `/_emulator/meetings/${m}/participants/${pid}/network` : `/_emulator/meetings/${m}/network`);

/** Whether a socket for the participant opens now (a network outage drops its connection unanswered). */
async function opens(p: Person, meetingId: string): Promise<boolean> {
  return SdkSocket.open(emu.url, { token: p.token, peerId: `peer-${p.name.toLowerCase()}`, roomId: meetingId }).then(
    (s) => {
      s.ws.terminate();
      return true;
    },
    (e: unknown) => {
      // An outage never answers with an HTTP status: the connection just ends.
      expect(e).not.toBeInstanceOf(Refused);
      return false;
    },
  );
}

async function presentIds(m: string): Promise<string[]> {
  const res = await fetch(`${emu.url}/_emulator/meetings/${m}/presence`);
  return ((await res.json()) as { participants: { id: string }[] }).participants.map((p) => p.id);
}

async function stageOf(m: string): Promise<Record<string, string>> {
  const { body } = await controlOf(emu)('GET', `/_emulator/meetings/${m}/stage`);
  return Object.fromEntries((body.participants as { name: string; status: string }[]).map((p) => [p.name, p.status]));
}

const webhookEvents = async () => (await emu.deliveries()).map((d) => d.event).reverse();

/** The network events of the live feed (the dashboard's timeline reads them), oldest first. */
function feedNetwork(): Array<{ change: unknown; scenario: unknown; participant_id: unknown; at: unknown }> {
  return emu.deps.feed
    .since(0)
    .filter((m) => m.kind === 'domain' && m.data.type === 'network.changed')
    .map((m) => ({ change: m.data.change, scenario: m.data.scenario, participant_id: m.data.participant_id, at: m.data.at }));
}

const networkJobs = () => emu.deps.scheduler.list().filter((j) => j.kind.startsWith('network.'));

beforeEach(async () => {
  emu = await startEmulator({ seed: 'network', clock: 'manual' });
  await rest('POST', '/v2/webhooks', {
    name: 'presence',
    url: 'http://127.0.0.1:9/hook',
    events: ['meeting.started', 'meeting.participantJoined', 'meeting.participantLeft', 'meeting.ended'],
  });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

describe('signal-drop', () => {
  it('cuts the socket without a close frame; the participant stays; the page back as the same peer takes its place and nobody hears of a leave', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const a = await joined(ada, m);
    const b = await joined(bob, m);

    const dropped = await network(m, ada.id, { scenario: 'signal-drop' });
    expect(dropped.status).toBe(200);
    expect(dropped.body.participants).toEqual([
      expect.objectContaining({ participant_id: ada.id, connection: 'reconnecting', leaves_at: at(WINDOW_MS), scenarios: [] }),
    ]);
    expect((await a.closed).code).toBe(1006);

    // Present all along: the session, the others, the REST API.
    await emu.advance(WINDOW_MS - 1);
    expect(await presentIds(m)).toEqual([ada.id, bob.id]);
    const active = await rest<{ live_participants: number }>('GET', `/v2/meetings/${m}/active-session`);
    expect(active.data.live_participants).toBe(2);

    // Back as the same peer: its join is answered, and it hears the room as before.
    const again = await open(ada, m);
    expect((await again.joinRoom(ada)).peer).toMatchObject({ peer_id: 'peer-ada', user_id: ada.id });
    await b.request(
      CHAT.sendMessageToRoom,
      'socket.chat.SendChatMessageToRoomRequest',
      { payload_type: 0, payload: 'welcome back' },
      'socket.chat.SendChatMessageToRoomResponse',
    );
    expect((await again.push(CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse')).message).toMatchObject({ payload: 'welcome back' });
    expect((await networkOf(m, ada.id)).body.participants[0]).toMatchObject({ connection: 'connected', leaves_at: null });

    // The window's end passes: nothing happens, nobody left.
    await emu.advance(WINDOW_MS);
    expect(await presentIds(m)).toEqual([ada.id, bob.id]);
    expect(b.frames.filter((f) => f.event === ROOM.leaveRoom)).toEqual([]);
    expect(await webhookEvents()).toEqual(['meeting.started', 'meeting.participantJoined', 'meeting.participantJoined']);
    expect(networkJobs()).toEqual([]);
    expect(feedNetwork()).toEqual([
      { change: 'lost', scenario: null, participant_id: ada.id, at: at(0) },
      { change: 'applied', scenario: 'signal-drop', participant_id: ada.id, at: at(0) },
      { change: 'returned', scenario: null, participant_id: ada.id, at: at(WINDOW_MS - 1) },
    ]);
  });

  it('the stage is whole again: who was on it (by preset or let on) is on it, who was off it (a viewer, a presenter who stepped down) is off it; nobody saw a move', async () => {
    const m = await meeting('Webinar');
    await addPreset(emu, 'webinar_speaker', 'webinar_viewer', {
      media: { audio: { can_produce: 'CAN_REQUEST' }, video: { can_produce: 'CAN_REQUEST' }, screenshare: { can_produce: 'NOT_ALLOWED' } },
    });
    const people = {
      hana: await addPerson(emu, m, 'Hana', 'webinar_presenter'),
      pia: await addPerson(emu, m, 'Pia', 'webinar_presenter'),
      vic: await addPerson(emu, m, 'Vic', 'webinar_speaker'),
      walt: await addPerson(emu, m, 'Walt', 'webinar_viewer'),
    };
    const pages: Record<string, SdkSocket> = {};
    for (const [key, p] of Object.entries(people)) {
      pages[key] = await open(p, m);
      await pages[key].joinRoom(p);
      await pages[key].completeJoin();
    }
    // Vic is invited and joins; Pia steps down.
    pages.hana!.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [people.vic.id] });
    await pages.vic!.push(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest');
    expect(await pages.vic!.request(ROOM.joinStage, null, {}, 'socket.room.PeerStatusUpdate')).toMatchObject({ stage_type: ON_STAGE });
    expect(
      await pages.pia!.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [people.pia.id] }, 'socket.room.PeerStatusUpdate'),
    ).toMatchObject({ stage_type: OFF_STAGE });
    const stage = { Hana: 'ON_STAGE', Pia: 'OFF_STAGE', Vic: 'ON_STAGE', Walt: 'OFF_STAGE' };
    expect(await stageOf(m)).toEqual(stage);
    const moves = pages.hana!.frames.filter((f) => f.event === ROOM.peerStageStatusUpdate).length;

    // Everyone but Hana loses their socket at once, and each page comes back as the same peer.
    for (const key of ['pia', 'vic', 'walt'] as const) expect((await network(m, people[key].id, { scenario: 'signal-drop' })).status).toBe(200);
    expect(await stageOf(m)).toEqual(stage);
    const back: Record<string, ProtoObject> = {};
    for (const key of ['pia', 'vic', 'walt'] as const) {
      pages[key] = await open(people[key], m);
      back[key] = (await pages[key].joinRoom(people[key])).peer as ProtoObject;
      await pages[key].completeJoin();
    }
    // Each page reads its own stage from its join's answer, and the others' from the room's peers.
    expect([back.pia!.stage_type, back.vic!.stage_type, back.walt!.stage_type]).toEqual([OFF_STAGE, ON_STAGE, OFF_STAGE]);
    const peers = await pages.walt!.request(ROOM.getRoomPeersInfo, 'socket.room.RoomPeersInfoRequest', {}, 'socket.room.RoomPeersInfoResponse');
    expect(Object.fromEntries((peers.peers as { peer_id: string; stage_type: number }[]).map((p) => [p.peer_id, p.stage_type]))).toEqual({
      'peer-hana': ON_STAGE,
      'peer-pia': OFF_STAGE,
      'peer-vic': ON_STAGE,
    });
    expect(await pages.vic!.request(ROOM.getStagePeers, null, {}, 'socket.livestreaming.GetStagePeersResponse')).toEqual({
      stage_peers: ['peer-hana', 'peer-vic'],
    });
    expect(await stageOf(m)).toEqual(stage);
    // Hana, who never lost hers, heard of no move.
    expect(pages.hana!.frames.filter((f) => f.event === ROOM.peerStageStatusUpdate)).toHaveLength(moves);
    expect((await networkOf(m)).body.participants.map((p) => p.connection)).toEqual(['connected', 'connected', 'connected', 'connected']);
  });

  it('a page not back within the window leaves at its end (webhook, REST, the others); a late return joins anew', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await joined(ada, m);
    const b = await joined(bob, m);
    await emu.advance(1_000);
    expect((await network(m, ada.id, { scenario: 'signal-drop' })).status).toBe(200);

    // One advance past the window: the leave is stamped with the window's end, not with the advance's.
    await emu.advance(3 * WINDOW_MS);
    expect((await b.push(ROOM.leaveRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-ada', user_id: ada.id });
    expect(await presentIds(m)).toEqual([bob.id]);
    const left = (await emu.deliveries({ event: 'meeting.participantLeft' }))[0]!;
    expect(left.payload).toMatchObject({ participant: { customParticipantId: 'ada', joinedAt: at(0), leftAt: at(1_000 + WINDOW_MS) } });
    const session = await rest<{ participants: { id: string; left_at: string | null }[] }>('GET', `/v2/meetings/${m}/active-session`);
    expect(session.status).toBe(200);
    expect((await networkOf(m, ada.id)).body.participants[0]).toMatchObject({ connection: 'none', leaves_at: null });

    // The page comes back late: a new join, heard by everyone.
    await joined(ada, m);
    expect((await b.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse', (x) => (x.peer as { user_id: string }).user_id === ada.id)).peer).toMatchObject({
      peer_id: 'peer-ada',
    });
    expect(await webhookEvents()).toEqual([
      'meeting.started',
      'meeting.participantJoined',
      'meeting.participantJoined',
      'meeting.participantLeft',
      'meeting.participantJoined',
    ]);
  });

  it('the last page lost ends the session only when its window ends; a page that closes its socket itself (1000, 1001) leaves at once', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await joined(ada, m);
    const b = await joined(bob, m);
    b.ws.close(1001);
    await b.closed;
    await expect.poll(() => presentIds(m)).toEqual([ada.id]);
    await network(m, null, { scenario: 'signal-drop' });
    await emu.advance(WINDOW_MS - 1);
    expect((await rest('GET', `/v2/meetings/${m}/active-session`)).status).toBe(200);
    await emu.advance(1);
    expect((await rest('GET', `/v2/meetings/${m}/active-session`)).status).toBe(404);
    const ended = (await emu.deliveries({ event: 'meeting.ended' }))[0]!;
    expect(ended.payload).toMatchObject({ reason: 'ALL_PARTICIPANTS_LEFT', meeting: { endedAt: at(WINDOW_MS) } });
  });

  it('is refused (409) when the participant has no page, or nobody in the meeting has one; nothing is applied', async () => {
    const m = await meeting();
    const [ada, bot] = [await person(m, 'Ada'), await person(m, 'Bot')];
    await control('POST', `/_emulator/meetings/${m}/participants/${bot.id}/join`, {});
    const refused = await network(m, bot.id, { scenario: 'signal-drop' });
    expect(refused).toEqual({
      status: 409,
      body: {
        error: {
          code: 'NO_PAGE',
          message: `Participant ${bot.id} has no page connected to meeting ${m}: there is no socket to drop (a scripted participant has none)`,
        },
      },
    });
    expect((await network(m, null, { scenario: 'signal-drop' })).body).toEqual({
      error: { code: 'NO_PAGE', message: `No page is connected to meeting ${m}: there is no socket to drop` },
    });
    expect((await network(m, ada.id, { scenario: 'signal-drop' })).status).toBe(409);
    expect(feedNetwork()).toEqual([]);
  });
});

describe('the request journal and the live feed', () => {
  it('the journal holds the REST calls made around a scenario, stamped with the clock and the answers they got; the scenario requests are the control API’s: never journaled, and heard by the live feed', async () => {
    const heard: FeedMessage[] = [];
    const unsubscribe = emu.deps.feed.subscribe({ send: (message) => void heard.push(message), end: () => undefined });
    try {
      const m = await meeting();
      const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
      await joined(ada, m);
      await joined(bob, m);
      expect((await fetch(`${emu.url}/_emulator/requests`, { method: 'DELETE' })).status).toBe(204);
      const from = heard.length;

      expect((await network(m, ada.id, { scenario: 'signal-drop' })).status).toBe(200);
      expect((await network(m, ada.id, { scenario: 'wifi' })).status).toBe(400);
      await emu.advance(1_000);
      // Read while Ada is away, and once her window has ended: Bob alone is left.
      expect((await rest<{ live_participants: number }>('GET', `/v2/meetings/${m}/active-session`)).data.live_participants).toBe(2);
      await emu.advance(WINDOW_MS);
      expect((await rest<{ live_participants: number }>('GET', `/v2/meetings/${m}/active-session`)).data.live_participants).toBe(1);
      expect((await rest('GET', `/v2/meetings/${m}/participants/${ada.id}`)).status).toBe(200);
      const read = await networkOf(m, ada.id);
      expect(read.body.participants[0]).toMatchObject({ connection: 'none' });

      const journal = await control<JournalEntry[]>('GET', '/_emulator/requests');
      expect(journal.body.map((e) => [e.method, e.path, e.status, e.at, e.org_id, e.deliveries])).toEqual([
        ['GET', `/v2/meetings/${m}/participants/${ada.id}`, 200, at(1_000 + WINDOW_MS), emu.orgId, []],
        ['GET', `/v2/meetings/${m}/active-session`, 200, at(1_000 + WINDOW_MS), emu.orgId, []],
        ['GET', `/v2/meetings/${m}/active-session`, 200, at(1_000), emu.orgId, []],
      ]);
      // The live feed (the dashboard's timeline) tells the same story in order: the control API's
      // scenario requests with their answers (its reads are not news), what the network did, the REST
      // calls, and Ada's leave when her window ended, between the two reads.
      const timeline = heard.slice(from).flatMap((msg) => {
        const d = msg.data;
        if (msg.kind === 'request') return [`${String(d.api)} ${String(d.method)} ${String(d.path)} ${String(d.status)}`];
        if (msg.kind === 'domain' && (d.type === 'network.changed' || d.type === 'participant.left'))
          return [`${String(d.type)} ${String(d.change ?? d.name)} ${String(d.at)}`];
        return [];
      });
      const adaNetwork = `/_emulator/meetings/${m}/participants/${ada.id}/network`;
      expect(timeline).toEqual([
        `network.changed lost ${at(0)}`,
        `network.changed applied ${at(0)}`,
        `control POST ${adaNetwork} 200`,
        `control POST ${adaNetwork} 400`,
        `v2 GET /v2/meetings/${m}/active-session 200`,
        `participant.left Ada ${at(WINDOW_MS)}`,
        `v2 GET /v2/meetings/${m}/active-session 200`,
        `v2 GET /v2/meetings/${m}/participants/${ada.id} 200`,
      ]);
    } finally {
      unsubscribe();
    }
  });
});

describe('on a real clock', () => {
  it('the window and an outage end by themselves; the webhook, the session history and the live feed agree on when', async () => {
    // 60×: the 60 s window is one real second, the 30 s outage half of one.
    await emu.close();
    emu = await startEmulator({ seed: 'network real', clock: 'real', timeScale: 60 });
    await rest('POST', '/v2/webhooks', { name: 'presence', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantLeft'] });
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await joined(ada, m);
    await joined(bob, m);
    await network(m, bob.id, { scenario: 'signal-outage', seconds: 30 });
    await network(m, ada.id, { scenario: 'signal-drop' });
    await expect.poll(() => presentIds(m), { timeout: 10_000 }).toEqual([]);
    const lost = Object.fromEntries(
      feedNetwork()
        .filter((e) => e.change === 'lost')
        .map((e) => [String(e.participant_id), Date.parse(String(e.at))]),
    );
    const left = await emu.deliveries({ event: 'meeting.participantLeft' });
    const session = (await rest<{ sessions: { id: string }[] }>('GET', `/v2/sessions?associated_id=${m}`)).data.sessions[0]!;
    const history = await rest<{ participants: { id: string; left_at: string }[] }>('GET', `/v2/sessions/${session.id}/participants`);
    for (const p of [ada, bob]) {
      const leftAt = (
        left.find((d) => (d.payload as { participant: { customParticipantId: string } }).participant.customParticipantId === p.name.toLowerCase())!.payload as {
          participant: { leftAt: string };
        }
      ).participant.leftAt;
      // At the window's end, or a moment after: a real timer fires late on a busy machine, and ten
      // real seconds are ten minutes at 60×.
      expect(Date.parse(leftAt) - lost[p.id]!).toBeGreaterThanOrEqual(WINDOW_MS);
      expect(Date.parse(leftAt) - lost[p.id]!).toBeLessThan(WINDOW_MS + 600 * 1_000);
      expect(history.data.participants.find((x) => x.id === p.id)!.left_at).toBe(leftAt);
    }
    // The outage ended by itself, on the clock too.
    await expect.poll(async () => (await networkOf(m, bob.id)).body.participants[0]!.scenarios, { timeout: 10_000 }).toEqual([]);
    expect(await opens(bob, m)).toBe(true);
    expect(networkJobs()).toEqual([]);
  });
});

describe('signal-outage', () => {
  it("refuses the participant's sockets until its seconds have passed on the emulator's clock; others still connect", async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const a = await joined(ada, m);
    const set = await network(m, ada.id, { scenario: 'signal-outage', seconds: 30 });
    expect(set.status).toBe(200);
    expect(set.body.participants[0]!.scenarios).toEqual([
      {
        id: 1,
        scenario: 'signal-outage',
        participant_id: ada.id,
        direction: null,
        percent: null,
        ms: null,
        kbps: null,
        seconds: 30,
        started_at: at(0),
        ends_at: at(30_000),
        paths_cut: null,
      },
    ]);
    expect((await a.closed).code).toBe(1006);
    expect(await opens(ada, m)).toBe(false);
    expect(await opens(bob, m)).toBe(true);
    await emu.advance(29_999);
    expect(await opens(ada, m)).toBe(false);
    await emu.advance(1);
    expect((await networkOf(m, ada.id)).body.participants[0]!.scenarios).toEqual([]);
    // Back within the window: the same participant, no leave.
    await joined(ada, m);
    expect(await webhookEvents()).toEqual(['meeting.started', 'meeting.participantJoined']);
    expect(feedNetwork().map((e) => `${String(e.change)} ${String(e.scenario)} ${String(e.at)}`)).toEqual([
      `lost null ${at(0)}`,
      `applied signal-outage ${at(0)}`,
      `ended signal-outage ${at(30_000)}`,
      `returned null ${at(30_000)}`,
    ]);
  });

  it('longer than the window: the participant leaves at its end while the outage still refuses; clear lets the page join anew', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    await joined(ada, m);
    await network(m, ada.id, { scenario: 'signal-outage' });
    await emu.advance(WINDOW_MS);
    expect(await presentIds(m)).toEqual([]);
    expect(await opens(ada, m)).toBe(false);
    const cleared = await network(m, ada.id, { scenario: 'clear' });
    expect(cleared.body.participants[0]).toMatchObject({ connection: 'none', scenarios: [] });
    await joined(ada, m);
    expect(await webhookEvents()).toEqual([
      'meeting.started',
      'meeting.participantJoined',
      'meeting.participantLeft',
      'meeting.ended',
      'meeting.started',
      'meeting.participantJoined',
    ]);
    expect(networkJobs()).toEqual([]);
  });

  it("for a whole meeting: every page's socket and every new one of the meeting is refused; another meeting's are not", async () => {
    const m = await meeting();
    const other = await meeting('Other');
    const [ada, bob, eve] = [await person(m, 'Ada'), await person(m, 'Bob'), await person(other, 'Eve')];
    const a = await joined(ada, m);
    const e = await joined(eve, other);
    const set = await network(m, null, { scenario: 'signal-outage', seconds: 5 });
    expect(set.body.scenarios).toMatchObject([{ scenario: 'signal-outage', participant_id: null, ends_at: at(5_000) }]);
    expect(set.body.participants).toMatchObject([{ participant_id: ada.id, connection: 'reconnecting', scenarios: [{ scenario: 'signal-outage' }] }]);
    expect((await a.closed).code).toBe(1006);
    expect(await opens(bob, m)).toBe(false);
    expect(await opens(eve, other)).toBe(true);
    expect(e.ws.readyState).toBe(e.ws.OPEN);
    expect((await networkOf(other)).body.participants).toMatchObject([{ participant_id: eve.id, connection: 'connected', scenarios: [] }]);
    await emu.advance(5_000);
    expect(await opens(bob, m)).toBe(true);
  });
});

describe('the degrading scenarios', () => {
  it('per direction, taken in series with the meeting’s, replaced by the same kind and direction, ended by their seconds or a clear', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await network(m, ada.id, { scenario: 'loss', percent: 10, direction: 'up' });
    await network(m, ada.id, { scenario: 'loss', percent: 20, direction: 'up' });
    await network(m, ada.id, { scenario: 'latency', ms: 150, seconds: 10 });
    await network(m, null, { scenario: 'loss', percent: 50, direction: 'both' });
    const set = await network(m, null, { scenario: 'bandwidth', kbps: 300, direction: 'down' });
    const byId = new Map(set.body.participants.map((p) => [p.participant_id, p]));
    // 1 − (1 − 0.2)(1 − 0.5) = 60 % up; 50 % down.
    expect(byId.get(ada.id)!.link).toEqual({
      up: { loss_percent: 60, latency_ms: 150, bandwidth_kbps: null },
      down: { loss_percent: 50, latency_ms: 150, bandwidth_kbps: 300 },
      media: 'flowing',
    });
    expect(byId.get(ada.id)!.scenarios.map((s) => [s.scenario, s.percent ?? s.ms ?? s.kbps, s.direction, s.participant_id === null])).toEqual([
      ['loss', 20, 'up', false],
      ['latency', 150, 'both', false],
      ['loss', 50, 'both', true],
      ['bandwidth', 300, 'down', true],
    ]);
    // Bob has only the meeting's (he is listed for it: a scenario applies to everyone in the meeting).
    expect((await networkOf(m, bob.id)).body.participants[0]!.link).toEqual({
      up: { loss_percent: 50, latency_ms: 0, bandwidth_kbps: null },
      down: { loss_percent: 50, latency_ms: 0, bandwidth_kbps: 300 },
      media: 'flowing',
    });
    await emu.advance(10_000);
    expect((await networkOf(m, ada.id)).body.participants[0]!.link.up).toEqual({ loss_percent: 60, latency_ms: 0, bandwidth_kbps: null });
    // A participant's clear ends their own; the meeting's stays.
    await network(m, ada.id, { scenario: 'clear' });
    expect((await networkOf(m, ada.id)).body.participants[0]!.scenarios.map((s) => s.scenario)).toEqual(['loss', 'bandwidth']);
    // The meeting's clear ends everything in it.
    await network(m, ada.id, { scenario: 'latency', ms: 20 });
    const cleared = await network(m, null, { scenario: 'clear' });
    expect(cleared.body.scenarios).toEqual([]);
    expect((await networkOf(m, ada.id)).body.participants[0]!.scenarios).toEqual([]);
    expect(networkJobs()).toEqual([]);
  });

  it('media-drop needs media to drop (409); nothing is applied', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    await joined(ada, m);
    expect(await network(m, ada.id, { scenario: 'media-drop' })).toEqual({
      status: 409,
      body: { error: { code: 'NO_MEDIA', message: `Participant ${ada.id} sends and receives no media in meeting ${m}: there is nothing to drop` } },
    });
    expect((await network(m, null, { scenario: 'media-drop', seconds: 3 })).body).toEqual({
      error: { code: 'NO_MEDIA', message: `Nobody sends or receives media in meeting ${m}: there is nothing to drop` },
    });
    expect((await networkOf(m)).body.scenarios).toEqual([]);
  });

  it('the in-process API sets and reads the same', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const set = await emu.setNetwork(m, ada.id, { scenario: 'bandwidth', kbps: 256, direction: 'up', seconds: 2 });
    expect(set).toEqual((await networkOf(m, ada.id)).body);
    expect(set.participants[0]!.link.up.bandwidth_kbps).toBe(256);
    await expect(emu.setNetwork(m, ada.id, { scenario: 'bandwidth', kbps: 2 })).rejects.toMatchObject({
      status: 400,
      message: '"kbps" must be greater than or equal to 8',
    });
    await emu.advance(2_000);
    expect((await emu.network(m, ada.id)).participants[0]!.scenarios).toEqual([]);
  });
});

describe('bad input', () => {
  it.each([
    [{ scenario: 'wifi' }, '"scenario" must be one of [signal-drop, signal-outage, media-drop, loss, latency, bandwidth, clear]'],
    [{}, '"scenario" is required'],
    [{ scenario: 'loss' }, '"percent" is required for loss'],
    [{ scenario: 'loss', percent: -5 }, '"percent" must be greater than or equal to 0.1'],
    [{ scenario: 'loss', percent: 101 }, '"percent" must be less than or equal to 100'],
    [{ scenario: 'loss', percent: '10' }, '"percent" must be a number'],
    [{ scenario: 'latency', ms: 60_000 }, '"ms" must be less than or equal to 10000'],
    [{ scenario: 'bandwidth', kbps: 0 }, '"kbps" must be greater than or equal to 8'],
    [{ scenario: 'latency', ms: 100, percent: 3 }, '"percent" is only for loss, not latency'],
    [{ scenario: 'loss', percent: 5, direction: 'sideways' }, '"direction" must be one of [up, down, both]'],
    [{ scenario: 'signal-outage', direction: 'up' }, '"direction" is only for loss, latency, bandwidth, not signal-outage'],
    [{ scenario: 'signal-drop', seconds: 5 }, '"seconds" is not taken by signal-drop: it is done at once'],
    [{ scenario: 'signal-outage', seconds: -1 }, '"seconds" must be greater than or equal to 0.1'],
    [{ scenario: 'media-drop', seconds: 86_401 }, '"seconds" must be less than or equal to 86400'],
    [{ scenario: 'clear', extra: true }, '"extra" is not allowed'],
  ])('%j is refused: %s', async (body, message) => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    await joined(ada, m);
    // The webhook attempts the joins made are over: the state stands still.
    await emu.deliveries();
    const before = await control('GET', '/_emulator/state');
    for (const pid of [ada.id, null]) expect(await network(m, pid, body)).toEqual({ status: 400, body: { error: { code: 'BAD_REQUEST', message } } });
    expect((await control('GET', '/_emulator/state')).body).toEqual(before.body);
    expect((await networkOf(m)).body.participants).toMatchObject([{ participant_id: ada.id, connection: 'connected', scenarios: [] }]);
    expect(feedNetwork()).toEqual([]);
  });

  it.each([
    [{ scenario: 'loss', percent: 0.1 }, 'percent', 0.1],
    [{ scenario: 'loss', percent: 100 }, 'percent', 100],
    [{ scenario: 'latency', ms: 1 }, 'ms', 1],
    [{ scenario: 'latency', ms: 10_000 }, 'ms', 10_000],
    [{ scenario: 'bandwidth', kbps: 8 }, 'kbps', 8],
    [{ scenario: 'bandwidth', kbps: 1_000_000 }, 'kbps', 1_000_000],
    [{ scenario: 'signal-outage', seconds: 0.1 }, 'seconds', 0.1],
    [{ scenario: 'media-drop', seconds: 86_400 }, 'seconds', 86_400],
  ])('%j is at its limit: accepted', async (body, field, value) => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    // A media-drop needs media to drop: Ada joins as a bot publishing the sample clip.
    if (body.scenario === 'media-drop')
      expect((await control('POST', `/_emulator/meetings/${m}/participants/${ada.id}/join`, { media: { audio: true } })).status).toBe(200);
    const set = await network(m, ada.id, body);
    expect(set.status).toBe(200);
    expect(set.body.participants[0]!.scenarios[0]).toMatchObject({ [field]: value });
  });

  it('an unknown meeting, a participant of another meeting or another organization: 404 naming it, nothing applied', async () => {
    const m = await meeting();
    const other = await meeting('Other');
    const eve = await person(other, 'Eve');
    const org = await control<{ id: string; api_key: string }>('POST', '/_emulator/orgs', { name: 'second' });
    const auth = `Basic ${Buffer.from(`${org.body.id}:${org.body.api_key}`).toString('base64')}`;
    const theirs = (await (
      await fetch(`${emu.url}/v2/meetings`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: '{}' })
    ).json()) as { data: { id: string } };
    const zed = (await (
      await fetch(`${emu.url}/v2/meetings/${theirs.data.id}/participants`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Zed', preset_name: 'group_call_host', custom_participant_id: 'zed' }),
      })
    ).json()) as { data: { id: string } };
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await network(missing, null, { scenario: 'loss', percent: 5 })).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: `No meeting found with id ${missing}` } },
    });
    for (const pid of [eve.id, zed.data.id, missing])
      expect(await network(m, pid, { scenario: 'loss', percent: 5 })).toEqual({
        status: 404,
        body: { error: { code: 'NOT_FOUND', message: `No participant ${pid} in meeting ${m}` } },
      });
    expect((await networkOf(m, eve.id)).status).toBe(404);
    expect((await networkOf(other)).body.participants).toEqual([]);
    expect((await networkOf(theirs.data.id)).body.scenarios).toEqual([]);
    expect(feedNetwork()).toEqual([]);
  });
});

describe('a reset', () => {
  it.each(['everything', 'the organization'] as const)('of %s ends every scenario and lost page: nothing is left, nothing falls due later', async (what) => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await joined(ada, m);
    await joined(bob, m);
    await network(m, ada.id, { scenario: 'signal-outage', seconds: 120 });
    await network(m, null, { scenario: 'latency', ms: 80 });
    expect(networkJobs().map((j) => j.kind)).toEqual(['network.reconnectWindowEnd', 'network.scenarioEnd']);
    const reset = await control('POST', what === 'everything' ? '/_emulator/reset' : `/_emulator/orgs/${emu.orgId}/reset`);
    expect(reset.status).toBe(200);
    expect(networkJobs()).toEqual([]);
    if (what === 'the organization') {
      // The meeting is gone with its organization.
      expect((await networkOf(m)).status).toBe(404);
      return;
    }
    expect((await networkOf(m)).status).toBe(404);
    const again = await meeting();
    const ada2 = await person(again, 'Ada');
    expect(await opens(ada2, again)).toBe(true);
    expect((await networkOf(again)).body).toEqual({ meeting_id: again, scenarios: [], participants: [] });
  });

  it('leaves no socket, timer or job behind once the pages are gone and the scenarios over', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const resources = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap');
    const idle = resources().length;
    await joined(ada, m);
    const b = await joined(bob, m);
    await network(m, ada.id, { scenario: 'signal-outage', seconds: 1 });
    await network(m, null, { scenario: 'loss', percent: 3, seconds: 2 });
    await emu.advance(2_000);
    const a = await joined(ada, m);
    await network(m, ada.id, { scenario: 'signal-drop' });
    await emu.advance(WINDOW_MS);
    await b.close();
    void a;
    await expect.poll(() => presentIds(m)).toEqual([]);
    expect(networkJobs()).toEqual([]);
    expect((await networkOf(m)).body).toEqual({ meeting_id: m, scenarios: [], participants: [] });
    // The emulator's own sockets and timers are back to what they were before the pages came.
    await expect.poll(() => resources().length, { timeout: 5_000 }).toBeLessThanOrEqual(idle);
  });
});
