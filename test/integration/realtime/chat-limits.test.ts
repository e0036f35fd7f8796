// The chat's limits (docs/limits-and-decisions.md, "Chat of a session"), each at the limit and one
// past it: recipients of a private message, channels of a session and members of a channel, a page
// of the history, the SDK's whole history on joining. The bulk is set up through the services; the
// limits are read through the socket, as a page meets them. A network test: real sockets, manual clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import type { Meeting } from '../../../src/domain/models.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, restOf, type Person } from '../../helpers/web-sdk.js';

const { chat: CHAT } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'chat limits', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

async function page(meetingId: string, p: Person): Promise<SdkSocket> {
  const s = await sockets.open(emu.url, meetingId, p);
  await s.joinRoom(p);
  return s;
}

/** A meeting with Ada's page in it, and `others` more participants of the meeting (joined by script when `present`). */
async function meeting(others: number, present: boolean): Promise<{ m: Meeting; ada: Person; a: SdkSocket; ids: string[] }> {
  const id = (await restOf(emu)<{ id: string }>('POST', '/v2/meetings', { title: 'Limits' })).id;
  const ada = await addPerson(emu, id, 'Ada');
  const a = await page(id, ada);
  const { participants, sessions } = emu.deps.services;
  const ids: string[] = [];
  for (let i = 0; i < others; i++) {
    const { participant: p } = await participants.add(emu.orgId, id, { presetName: 'group_call_host', customParticipantId: `p${i}`, name: `P${i}` });
    if (present) sessions.join(id, p.id);
    ids.push(p.id);
  }
  return { m: sessions.locateMeeting(id), ada, a, ids };
}

/** The state export answers, and the same document loads back. */
async function exportsAndLoads(): Promise<void> {
  const exported = await fetch(`${emu.url}/_emulator/state`);
  expect(exported.status).toBe(200);
  const loaded = await fetch(`${emu.url}/_emulator/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: await exported.text() });
  expect(loaded.status).toBe(200);
}

describe('the chat of a session, at its limits', () => {
  it('a private message goes to 100 participants besides its sender; to 101 it is refused', async () => {
    const { m, ada, a, ids } = await meeting(101, true);
    const history = emu.deps.services.sessionHistory;
    expect(history.sendChat(m, ada.id, 'to a hundred', { to: ids.slice(0, 100) }).message.targets).toHaveLength(101);
    expect(() => history.sendChat(m, ada.id, 'to one more', { to: ids })).toThrow('A private message goes to at most 100 participants');
    // Through the socket, the same: the page names peers (a scripted participant's peer id is its participant id).
    const over = a.request(
      CHAT.sendMessageToPeers,
      'socket.chat.SendChatMessageToPeersRequest',
      { peer_ids: ids, payload_type: 0, payload: 'x' },
      'socket.chat.SendChatMessageToPeersResponse',
    );
    await expect(over).rejects.toThrow('A private message goes to at most 100 participants');
    expect((await a.request(CHAT.getMessages, null, {}, 'socket.chat.GetChatMessagesResponse')).messages).toHaveLength(1);
    // Kept as the state export holds it: the export answers, and loads back.
    await exportsAndLoads();
  });

  it('a session keeps 100 channels; a channel has 500 members', async () => {
    const { m, ada, ids } = await meeting(500, false);
    const history = emu.deps.services.sessionHistory;
    const input = { name: 'c', isDirectMessage: false };
    expect(history.createChannel(m, ada.id, { ...input, members: ids.slice(0, 499) }).members).toHaveLength(500);
    // A picture link and a visibility at their limits are kept; one past either is refused.
    const at = history.createChannel(m, ada.id, { ...input, members: [], pictureUrl: `https://x.test/${'p'.repeat(2048 - 15)}`, visibility: 'v'.repeat(50) });
    expect([at.pictureUrl!.length, at.visibility.length]).toEqual([2048, 50]);
    expect(() => history.createChannel(m, ada.id, { ...input, members: [], pictureUrl: `${at.pictureUrl!}p` })).toThrow(
      "A channel's picture link holds at most 2048 characters",
    );
    expect(() => history.updateChannel(m, ada.id, at.id, { visibility: 'v'.repeat(51) })).toThrow("A channel's visibility holds at most 50 characters");
    expect(() => history.createChannel(m, ada.id, { ...input, members: ids })).toThrow('A channel has at most 500 members');
    for (let i = 2; i < 100; i++) history.createChannel(m, ada.id, { ...input, members: [] });
    expect(() => history.createChannel(m, ada.id, { ...input, members: [] })).toThrow(/already has 100 chat channels, the most one session keeps$/);
    expect(history.channelsOf(m, ada.id)).toHaveLength(100);
    await exportsAndLoads();
  });

  it('a page of the history holds 500 messages at most; the whole history on joining the most recent 1000', async () => {
    const { m, ada, a } = await meeting(0, false);
    const history = emu.deps.services.sessionHistory;
    for (let i = 0; i < 1001; i++) history.sendChat(m, ada.id, `m${i}`);
    const paged = (size: number) =>
      a.request(
        CHAT.getPaginatedMessages,
        'socket.chat.GetPaginatedChatMessageRoomRequest',
        { time_stamp: 0, size, from: 0, reversed: false },
        'socket.chat.GetPaginatedChatMessageRoomResponse',
      ) as Promise<{ messages: { payload: string }[]; next: boolean }>;
    expect((await paged(500)).messages).toHaveLength(500);
    const capped = await paged(501);
    expect(capped.messages).toHaveLength(500);
    expect(capped.next).toBe(true);
    // A page asked for with no size: the kits' 25.
    expect((await paged(0)).messages.map((x) => x.payload)).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}`));
    const all = (await a.request(CHAT.getMessages, null, {}, 'socket.chat.GetChatMessagesResponse')).messages as { payload: string }[];
    expect(all).toHaveLength(1000);
    expect([all[0]!.payload, all.at(-1)!.payload]).toEqual(['m1', 'm1000']);
  });
});
