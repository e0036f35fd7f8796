// The web SDK's signalling socket, driven from Node the way the SDK drives it (the same binary
// frames), against a listening emulator: who may open a socket, the room's answers, one presence
// model with scripted joins and the REST API, and bad input that closes or answers cleanly and
// never touches another room. A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { encodeEnvelope } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, Refused, SdkSocket } from '../../helpers/sdk-socket.js';

const { room: ROOM, chat: CHAT, polls: POLLS, plugin: PLUGIN, cfMedia: MEDIA } = SDK_EVENTS;
/** Documented close codes (docs/frontend-offline.md). */
const CLOSED = { malformed: 1007, policy: 1008, tooBig: 1009, reset: 4000, expired: 4001, removed: 4003, replaced: 4009 };
const DAY = 24 * 60 * 60 * 1000;

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
/** A participant's socket in a meeting, ended with the test. */
const open = (p: Person, meetingId: string, peerId?: string): Promise<SdkSocket> => sockets.open(emu.url, meetingId, p, peerId);

async function refusal(q: Parameters<typeof SdkSocket.open>[1]): Promise<Refused> {
  const err = await SdkSocket.open(emu.url, q).then(
    () => {
      throw new Error('the socket opened');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Refused);
  return err as Refused;
}

beforeEach(async () => {
  emu = await startEmulator({ seed: 'signalling', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

describe('who may open a socket', () => {
  it('refuses before any WebSocket exists, with a status and a reason', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const other = await person(await meeting('Other'), 'Eve');
    expect((await refusal({ peerId: 'p1', roomId: m })).status).toBe(401);
    expect((await refusal({ token: 'not.a.jwt', peerId: 'p1', roomId: m })).status).toBe(401);
    const forged = ada.token.slice(0, -4) + (ada.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await refusal({ token: forged, peerId: 'p1', roomId: m })).status).toBe(401);
    const wrongRoom = await refusal({ token: other.token, peerId: 'p1', roomId: m });
    expect(wrongRoom.status).toBe(403);
    expect(wrongRoom.body).toContain(m);
    expect((await refusal({ token: ada.token, peerId: 'a b', roomId: m })).status).toBe(400);
    expect((await refusal({ token: ada.token, peerId: 'p1', roomId: m, path: '/socket' })).status).toBe(404);
  });

  it('refuses a deleted participant and an expired token (100 days on the emulator clock)', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const bob = await person(m, 'Bob');
    expect((await rest('DELETE', `/v2/meetings/${m}/participants/${bob.id}`)).status).toBe(200);
    expect((await refusal({ token: bob.token, peerId: 'p2', roomId: m })).status).toBe(404);
    await emu.advance(100 * DAY + 1000);
    expect((await refusal({ token: ada.token, peerId: 'p1', roomId: m })).status).toBe(401);
  });
});

describe('a page in the meeting', () => {
  it('joins through the same presence as a scripted join: session, webhooks, REST', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    await rest('POST', '/v2/webhooks', {
      name: 'all',
      url: 'http://127.0.0.1:9/hook',
      events: ['meeting.started', 'meeting.participantJoined', 'meeting.participantLeft', 'meeting.ended'],
    });
    const a = await open(ada, m);
    const joined = await a.joinRoom(ada);
    expect(joined.peer).toMatchObject({
      peer_id: 'peer-ada',
      user_id: ada.id,
      display_name: 'Ada',
      custom_participant_id: 'ada',
      flags: { recorder_type: 'NONE' },
    });

    const active = await rest<{ live_participants: number; status: string }>('GET', `/v2/meetings/${m}/active-session`);
    expect(active.data).toMatchObject({ status: 'LIVE', live_participants: 1 });
    const room = await a.request(ROOM.getRoomInfo, null, {}, 'socket.room.RoomInfoResponse');
    expect(room.room).toMatchObject({ room_id: m, title: 'Standup' });

    await a.request(ROOM.leaveRoom, 'socket.room.LeaveRoomRequest', {}, null);
    const events = (await emu.deliveries()).map((d) => d.event).reverse();
    expect(events).toEqual(['meeting.started', 'meeting.participantJoined', 'meeting.participantLeft', 'meeting.ended']);
  });

  it('sees the others join, chat and leave; a scripted join appears as a peer', async () => {
    const m = await meeting();
    const [ada, bob, carl] = [await person(m, 'Ada'), await person(m, 'Bob'), await person(m, 'Carl')];
    const a = await open(ada, m);
    await a.joinRoom(ada);
    const b = await open(bob, m);
    await b.joinRoom(bob);

    expect((await a.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob', display_name: 'Bob' });
    const peers = await b.request(ROOM.getRoomPeersInfo, null, {}, 'socket.room.RoomPeersInfoResponse');
    expect((peers.peers as { peer_id: string }[]).map((p) => p.peer_id)).toEqual(['peer-ada']);
    const none = await b.request(
      ROOM.getRoomPeersInfo,
      'socket.room.RoomPeersInfoRequest',
      { seach_query: 'zed', limit: 10, offset: 0 },
      'socket.room.RoomPeersInfoResponse',
    );
    expect(none.peers).toEqual([]);

    const sent = await a.request(
      CHAT.sendMessageToRoom,
      'socket.chat.SendChatMessageToRoomRequest',
      { payload_type: 0, payload: 'hello Bob' },
      'socket.chat.SendChatMessageToRoomResponse',
    );
    expect(sent.message).toMatchObject({ peer_id: 'peer-ada', user_id: ada.id, display_name: 'Ada', payload: 'hello Bob' });
    expect((await b.push(CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse')).message).toMatchObject({ payload: 'hello Bob' });
    const history = await b.request(CHAT.getMessages, null, {}, 'socket.chat.GetChatMessagesResponse');
    expect((history.messages as { payload: string }[]).map((x) => x.payload)).toEqual(['hello Bob']);
    // The page's message is the session's chat, as the REST API serves it.
    const live = await rest<{ id: string }>('GET', `/v2/meetings/${m}/active-session`);
    const link = await rest<{ chat_download_url: string }>('GET', `/v2/sessions/${live.data.id}/chat`);
    expect(await (await fetch(link.data.chat_download_url)).text()).toContain('hello Bob');

    expect((await fetch(`${emu.url}/_emulator/meetings/${m}/participants/${carl.id}/join`, { method: 'POST' })).status).toBe(200);
    expect(
      (await a.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse', (x) => (x.peer as { display_name: string }).display_name === 'Carl')).peer,
    ).toMatchObject({ peer_id: carl.id, user_id: carl.id });

    await b.close();
    expect((await a.push(ROOM.leaveRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
    const active = await rest<{ live_participants: number }>('GET', `/v2/meetings/${m}/active-session`);
    expect(active.data.live_participants).toBe(2);
  });

  it('a REST kick removes the page: it hears why, then its socket closes', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const a = await open(ada, m);
    await a.joinRoom(ada);
    const b = await open(bob, m);
    await b.joinRoom(bob);
    expect((await rest('POST', `/v2/meetings/${m}/active-session/kick`, { participant_ids: [bob.id] })).status).toBe(200);
    expect((await b.push(ROOM.kick, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
    expect((await b.closed).code).toBe(CLOSED.removed);
    expect((await a.push(ROOM.leaveRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
  });

  it('answers polls, plugins and the plugin stores; a store change reaches every page', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const a = await open(ada, m);
    await a.joinRoom(ada);
    const b = await open(bob, m);
    await b.joinRoom(bob);
    expect((await rest('POST', `/v2/meetings/${m}/active-session/poll`, { question: 'Lunch?', options: ['Yes', 'No'] })).status).toBe(201);
    expect((await a.push(POLLS.createPoll, 'socket.polls.UpdatePollResponse')).poll).toMatchObject({ question: 'Lunch?' });
    await b.request(
      POLLS.createPoll,
      'socket.polls.NewPollRequest',
      { question: 'Tea?', options: ['Green', 'Black'], anonymous: true },
      'socket.polls.UpdatePollResponse',
    );
    expect((await a.push(POLLS.createPoll, 'socket.polls.UpdatePollResponse', (x) => (x.poll as { question: string }).question === 'Tea?')).poll).toMatchObject(
      {
        created_by_user_id: bob.id,
        anonymous: true,
      },
    );
    const polls = await a.request(POLLS.getPolls, null, {}, 'socket.polls.GetPollsResponse');
    expect(polls.polls).toMatchObject([
      { question: 'Lunch?', options: [{ text: 'Yes' }, { text: 'No' }] },
      { question: 'Tea?', options: [{ text: 'Green' }, { text: 'Black' }] },
    ]);
    const session = await rest<{ id: string }>('GET', `/v2/meetings/${m}/active-session`);
    expect(session.status).toBe(200);
    expect((await a.request(PLUGIN.getPlugins, null, {}, 'socket.plugin.EnablePluginsResponse')).plugins).toEqual([]);

    const item = { store_key: 'theme', payload: new TextEncoder().encode('"dark"') };
    await a.request(PLUGIN.storeInsertKeys, 'socket.plugin.PluginStoreInsertKeysRequest', { plugin_id: m, store_name: 'ui', insert_keys: [item] }, null);
    const told = await b.push(PLUGIN.storeInsertKeys, 'socket.plugin.PluginStoreResponse');
    expect(told).toMatchObject({ plugin_id: m, store_name: 'ui', store_items: [{ store_key: 'theme', peer_id: 'peer-ada' }] });
    const read = await b.request(
      PLUGIN.storeGetKeys,
      'socket.plugin.PluginStoreGetKeysRequest',
      { plugin_id: m, store_name: 'ui', get_keys: [] },
      'socket.plugin.PluginStoreResponse',
    );
    expect(new TextDecoder().decode((read.store_items as { payload: Uint8Array }[])[0]!.payload)).toBe('"dark"');
  });

  it("sees the meeting's recording and livestream as the REST API drives them", async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m);
    await a.joinRoom(ada);
    const rec = await rest<{ id: string }>('POST', '/v2/recordings', { meeting_id: m });
    expect(rec.status).toBe(200);
    // INVOKED → RECORDING on the simulator's schedule (manual clock).
    await emu.advance(10_000);
    expect(await a.push(ROOM.recordingStarted, 'socket.recording.RecordingEvent')).toMatchObject({ recording_id: rec.data.id });
    const info = await a.request(ROOM.getRoomInfo, null, {}, 'socket.room.RoomInfoResponse');
    expect(info.room).toMatchObject({ active_recordings: [{ recording_id: rec.data.id, recording_status: 'RECORDING' }] });
    expect((await rest('PUT', `/v2/recordings/${rec.data.id}`, { action: 'stop' })).status).toBe(200);
    expect(await a.push(ROOM.recordingStopped, 'socket.recording.RecordingEvent')).toMatchObject({ recording_id: rec.data.id });

    const live = await rest<{ id: string }>('POST', `/v2/meetings/${m}/livestreams`, { name: 'standup' });
    expect(live.status).toBe(201);
    await emu.advance(60_000);
    const started = await a.push(ROOM.startedLivestream, 'socket.livestreaming.LiveStreamingEvent');
    expect(started).toMatchObject({ livestream_id: live.data.id, meeting_id: m });
    expect(String(started.playback_url)).toMatch(new RegExp(`^${emu.url}/`));
  });

  it('refuses a produce before the page has a send transport, with the error the SDK reads', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m);
    await a.joinRoom(ada);
    await expect(a.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', { kind: 'audio' }, null)).rejects.toThrow(
      'Produce on this page’s own send transport (create it first)',
    );
  });
});

describe('bad input', () => {
  it('an unknown event or a malformed payload is answered with an error on the same id; the socket stays open', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m);
    const info = vi.spyOn(emu.deps.logger, 'info');
    await expect(a.request(999_999, null, {}, null)).rejects.toThrow('Unknown event 999999');
    await expect(a.request(999_999, null, {}, null)).rejects.toThrow('Unknown event 999999');
    expect(info.mock.calls.filter(([, msg]) => msg === 'SDK request refused')).toHaveLength(1);
    // A length-delimited field whose length runs past the end of the payload.
    const broken = encodeEnvelope({ event: ROOM.joinRoom, id: 'x1', payload: Uint8Array.from([0x0a, 0x7f, 0x01]) });
    const answer = a.next((f) => f.id === 'x1');
    a.sendRaw(broken);
    expect((await answer).event).toBe(MEDIA.errorResponse);
    expect((await a.request(ROOM.getRoomInfo, null, {}, 'socket.room.RoomInfoResponse')).room).toMatchObject({ room_id: m });
  });

  it('a frame that is not a socket message closes the socket (1007); an oversized one 1009', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m, 'p1');
    a.sendRaw(Uint8Array.from([0xff, 0xff, 0xff]));
    expect((await a.closed).code).toBe(CLOSED.malformed);
    const b = await open(ada, m, 'p2');
    b.sendRaw(new Uint8Array(300 * 1024));
    expect((await b.closed).code).toBe(CLOSED.tooBig);
  });

  it('a flood closes the socket (1008); pings are answered, other text ignored', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m, 'p1');
    a.sendRaw('2');
    a.sendRaw('hello');
    await a.request(ROOM.getRoomInfo, null, {}, 'socket.room.RoomInfoResponse');
    expect(a.texts).toEqual(['3']);
    const frame = encodeEnvelope({ event: ROOM.getRoomInfo, id: 'f', payload: new Uint8Array() });
    for (let i = 0; i < 500; i++) a.sendRaw(frame);
    expect((await a.closed).code).toBe(CLOSED.policy);
  });

  it('a second socket for the same peer replaces the first (4009): a reconnect, not a leave', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    await rest('POST', '/v2/webhooks', { name: 'presence', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantJoined', 'meeting.participantLeft'] });
    const b = await open(bob, m);
    await b.joinRoom(bob);
    const first = await open(ada, m, 'same');
    await first.joinRoom(ada);
    const second = await open(ada, m, 'same');
    expect((await first.closed).code).toBe(CLOSED.replaced);
    // Still in the room: Bob's chat reaches the new socket; nobody left.
    await b.request(
      CHAT.sendMessageToRoom,
      'socket.chat.SendChatMessageToRoomRequest',
      { payload_type: 0, payload: 'still there?' },
      'socket.chat.SendChatMessageToRoomResponse',
    );
    expect((await second.push(CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse')).message).toMatchObject({ payload: 'still there?' });
    expect(b.frames.filter((f) => f.event === ROOM.leaveRoom)).toEqual([]);
    // The page's leave, from the new socket, is the participant's leave.
    await second.close();
    expect((await b.push(ROOM.leaveRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'same', user_id: ada.id });
    const events = (await emu.deliveries()).map((d) => `${d.event}`).reverse();
    expect(events).toEqual(['meeting.participantJoined', 'meeting.participantJoined', 'meeting.participantLeft']);
  });

  it('a token that expires on the emulator clock closes its socket (4001); a deleted participant is removed (4003)', async () => {
    const m = await meeting();
    const [ada, bob] = [await person(m, 'Ada'), await person(m, 'Bob')];
    const b = await open(bob, m);
    await b.joinRoom(bob);
    expect((await rest('DELETE', `/v2/meetings/${m}/participants/${bob.id}`)).status).toBe(200);
    expect((await b.closed).code).toBe(CLOSED.removed);
    const a = await open(ada, m);
    await emu.advance(100 * DAY + 1000);
    expect((await a.closed).code).toBe(CLOSED.expired);
  });

  it('a shutdown closes every socket (1001), and its participant leaves the meeting', async () => {
    const m = await meeting();
    const ada = await person(m, 'Ada');
    const a = await open(ada, m);
    await a.joinRoom(ada);
    await emu.close();
    expect((await a.closed).code).toBe(1001);
    expect(emu.deps.services.participants.find(emu.orgId, ada.id)?.joinedAt).toBeNull();
  });

  it('a reset closes every socket (4000); nothing one room says reaches another', async () => {
    const [m1, m2] = [await meeting('One'), await meeting('Two')];
    const [ada, eve] = [await person(m1, 'Ada'), await person(m2, 'Eve')];
    const a = await open(ada, m1);
    await a.joinRoom(ada);
    const e = await open(eve, m2);
    await e.joinRoom(eve);
    await a.request(
      CHAT.sendMessageToRoom,
      'socket.chat.SendChatMessageToRoomRequest',
      { payload_type: 0, payload: 'only for one' },
      'socket.chat.SendChatMessageToRoomResponse',
    );
    await e.request(ROOM.getRoomInfo, null, {}, 'socket.room.RoomInfoResponse');
    expect(e.frames.map((f) => f.event)).toEqual([ROOM.joinRoom, ROOM.getRoomInfo]);
    await emu.reset();
    expect((await a.closed).code).toBe(CLOSED.reset);
    expect((await e.closed).code).toBe(CLOSED.reset);
  });
});
