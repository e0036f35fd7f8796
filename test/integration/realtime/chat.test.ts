// The chat, whole, driven from Node the way the SDKs drive the socket: private messages (seen by
// their participants only, in the session's export), edits, deletes and pins (told to whoever
// sees the message), pages of the history with their filters, custom payloads, and web-core's
// chat channels. Bad input (a recipient not in the meeting, an unknown payload type, a payload the
// SDKs cannot show, a preset that may not send it, someone else's message, a channel one is not
// in) is answered with the SDK's error reply naming the reason, logged once, and changes nothing.
// A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { chat: CHAT, chatChannel: CHANNEL } = SDK_EVENTS;
const TEXT = 0;
const IMAGE = 1;
const FILE = 2;
const CUSTOM = 3;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'chat whole', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

const control = (path: string, body?: unknown) => controlOf(emu)('POST', `/_emulator${path}`, body);

async function page(meetingId: string, p: Person): Promise<SdkSocket> {
  const s = await sockets.open(emu.url, meetingId, p);
  await s.joinRoom(p);
  return s;
}

interface Message {
  chat_id: string;
  peer_id: string;
  user_id: string;
  payload: string;
  payload_type: number;
  target_user_ids: string[];
  pinned: boolean;
  is_edited: boolean;
  created_at_ms: number;
  channel_id?: string;
  channel_index?: string;
}

/** A meeting with Ada, Bob and Carl's pages in it. */
async function threePages() {
  const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Chat' })).id;
  const [ada, bob, carl] = [await addPerson(emu, m, 'Ada'), await addPerson(emu, m, 'Bob'), await addPerson(emu, m, 'Carl')];
  const [a, b, c] = [await page(m, ada), await page(m, bob), await page(m, carl)];
  return { m, ada, bob, carl, a, b, c };
}

const toRoom = (s: SdkSocket, payload: string, payloadType = TEXT) =>
  s.request(
    CHAT.sendMessageToRoom,
    'socket.chat.SendChatMessageToRoomRequest',
    { payload_type: payloadType, payload },
    'socket.chat.SendChatMessageToRoomResponse',
  );

const toPeers = (s: SdkSocket, peerIds: string[], payload: string, payloadType = TEXT) =>
  s.request(
    CHAT.sendMessageToPeers,
    'socket.chat.SendChatMessageToPeersRequest',
    { peer_ids: peerIds, payload_type: payloadType, payload },
    'socket.chat.SendChatMessageToPeersResponse',
  );

async function history(s: SdkSocket): Promise<Message[]> {
  return (await s.request(CHAT.getMessages, null, {}, 'socket.chat.GetChatMessagesResponse')).messages as Message[];
}

async function paged(s: SdkSocket, q: ProtoObject): Promise<{ messages: Message[]; next: boolean }> {
  return (await s.request(
    CHAT.getPaginatedMessages,
    'socket.chat.GetPaginatedChatMessageRoomRequest',
    { time_stamp: 0, size: 25, from: 0, reversed: false, ...q },
    'socket.chat.GetPaginatedChatMessageRoomResponse',
  )) as unknown as { messages: Message[]; next: boolean };
}

/** The session's chat export, as its download link serves it: the rows after the header. */
async function exported(meetingId: string): Promise<string[]> {
  const session = await rest<{ id: string }>('GET', `/v2/meetings/${meetingId}/active-session`);
  const link = await rest<{ chat_download_url: string }>('GET', `/v2/sessions/${session.id}/chat`);
  return (await (await fetch(link.chat_download_url)).text()).split('\r\n').slice(1, -1);
}

const pushes = (s: SdkSocket, event: number) => s.frames.filter((f) => f.event === event && !f.id.startsWith(s.peerId));

describe('private messages', () => {
  it('from a page reach the two participants only, in their histories and the export; a bot sends one through the control API', async () => {
    const { m, ada, bob, carl, a, b, c } = await threePages();
    // The SDK names the recipients' peer ids and its own.
    const sent = (await toPeers(a, ['peer-bob', 'peer-ada'], 'just for Bob')).message as Message;
    expect(sent).toMatchObject({ peer_id: 'peer-ada', user_id: ada.id, payload: 'just for Bob', target_user_ids: [ada.id, bob.id] });
    expect((await b.push(CHAT.sendMessageToPeers, 'socket.chat.SendChatMessageToPeersResponse')).message).toEqual(sent);
    await toRoom(a, 'for everyone');
    await c.push(CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse');
    expect(pushes(c, CHAT.sendMessageToPeers)).toEqual([]);

    expect((await history(a)).map((x) => x.payload)).toEqual(['just for Bob', 'for everyone']);
    expect((await history(b)).map((x) => x.payload)).toEqual(['just for Bob', 'for everyone']);
    expect((await history(c)).map((x) => x.payload)).toEqual(['for everyone']);
    // A conversation of two, as the kits ask for it (RealtimeKit's fetchPrivateMessages).
    expect((await paged(b, { filters: { user_id: ada.id } })).messages.map((x) => x.payload)).toEqual(['just for Bob']);
    expect((await paged(c, { filters: { user_id: ada.id } })).messages).toEqual([]);

    const bot = await control(`/meetings/${m}/participants/${carl.id}/chat`, { message: 'psst Bob', to: [bob.id] });
    expect(bot).toMatchObject({ status: 200, body: { participant_id: carl.id, message: 'psst Bob', to: [bob.id] } });
    expect(
      (await b.push(CHAT.sendMessageToPeers, 'socket.chat.SendChatMessageToPeersResponse', (x) => (x.message as Message).payload === 'psst Bob')).message,
    ).toMatchObject({
      user_id: carl.id,
      peer_id: 'peer-carl',
      target_user_ids: [carl.id, bob.id],
    });
    expect(pushes(a, CHAT.sendMessageToPeers)).toEqual([]);

    // Private messages are rows of the export like the others.
    expect((await exported(m)).map((row) => row.split(',')[8])).toEqual(['just for Bob', 'for everyone', 'psst Bob']);
  });

  it('is refused to a peer not in the meeting, to a participant who left, with no peer, and from a preset that may not send one; nothing is sent', async () => {
    const { m, carl, a, b } = await threePages();
    const vic = await addPerson(emu, m, 'Vic', 'webinar_viewer');
    const v = await page(m, vic);
    const info = vi.spyOn(emu.deps.logger, 'info');
    await expect(toPeers(a, ['peer-nobody', 'peer-ada'], 'hello?')).rejects.toThrow('Peer peer-nobody is not in this meeting');
    const dan = await addPerson(emu, m, 'Dan');
    expect((await control(`/meetings/${m}/participants/${dan.id}/join`)).status).toBe(200);
    expect((await control(`/meetings/${m}/participants/${dan.id}/leave`)).status).toBe(200);
    await expect(toPeers(a, [dan.id], 'gone?')).rejects.toThrow(`Peer ${dan.id} is not in this meeting`);
    await expect(toPeers(a, [], 'nobody')).rejects.toThrow('A private message names at least one peer');
    await expect(toPeers(v, ['peer-bob', 'peer-vic'], 'hi')).rejects.toThrow(
      'Preset webinar_viewer may not send private chat messages (permissions.chat.private.can_send is false)',
    );
    // Through the control API: a participant of another meeting, one not in this one.
    const other = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Other' })).id;
    const eve = await addPerson(emu, other, 'Eve');
    expect(await control(`/meetings/${m}/participants/${carl.id}/chat`, { message: 'x', to: [eve.id] })).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: `No participant found with id ${eve.id} in meeting ${m}` } },
    });
    expect(await control(`/meetings/${m}/participants/${carl.id}/chat`, { message: 'x', to: [dan.id] })).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: `Participant ${dan.id} is not in meeting ${m}` } },
    });

    expect(await history(b)).toEqual([]);
    expect(await exported(m)).toEqual([]);
    expect(pushes(b, CHAT.sendMessageToPeers)).toEqual([]);
    const refused = info.mock.calls.filter(([, msg]) => msg === 'SDK request refused').map(([f]) => (f as { peer: string }).peer);
    expect(refused).toEqual(['peer-ada', 'peer-vic']);
  });
});

describe('edits, deletes and pins', () => {
  it('its sender edits and deletes a message; anyone who sees it pins it; each is told to whoever sees the message and kept in the export', async () => {
    const { m, ada, a, b, c } = await threePages();
    const msg = (await toRoom(a, 'helo')).message as Message;
    const edited = (
      await a.request(
        CHAT.editMessage,
        'socket.chat.EditChatMessageRequest',
        { chat_id: msg.chat_id, payload_type: TEXT, payload: 'hello' },
        'socket.chat.EditChatMessageResponse',
      )
    ).message as Message;
    expect(edited).toMatchObject({ chat_id: msg.chat_id, payload: 'hello', is_edited: true, pinned: false, user_id: ada.id });
    for (const s of [b, c]) expect((await s.push(CHAT.editMessage, 'socket.chat.EditChatMessageResponse')).message).toEqual(edited);

    const pinned = await b.request(
      CHAT.pinMessage,
      'socket.chat.PinChatMessageRequest',
      { chat_id: msg.chat_id, pinned: true },
      'socket.chat.PinChatMessageResponse',
    );
    expect(pinned).toMatchObject({ chat_id: msg.chat_id, pinned: true, message: { payload: 'hello', pinned: true } });
    expect(await c.push(CHAT.pinMessage, 'socket.chat.PinChatMessageResponse')).toMatchObject({ chat_id: msg.chat_id, pinned: true });
    expect((await paged(c, { filters: { pinned: true } })).messages.map((x) => x.chat_id)).toEqual([msg.chat_id]);
    expect((await exported(m))[0]).toMatch(new RegExp(`^${msg.chat_id},${ada.id},.*,Ada,true,true,TEXT_MESSAGE,hello,`));

    // web-core pins with an edit that carries only the pin: the answer is the edit's, the news a pin.
    const unpinned = await a.request(
      CHAT.editMessage,
      'socket.chat.EditChatMessageRequest',
      { chat_id: msg.chat_id, pinned: false },
      'socket.chat.EditChatMessageResponse',
    );
    expect(unpinned.message).toMatchObject({ chat_id: msg.chat_id, pinned: false, payload: 'hello' });
    expect(await c.push(CHAT.pinMessage, 'socket.chat.PinChatMessageResponse', (x) => x.pinned === false)).toMatchObject({ chat_id: msg.chat_id });

    const gone = await a.request(CHAT.deleteMessage, 'socket.chat.DeleteChatMessageRequest', { chat_id: msg.chat_id }, 'socket.chat.DeleteChatMessageResponse');
    expect(gone).toMatchObject({ chat_id: msg.chat_id });
    expect(await b.push(CHAT.deleteMessage, 'socket.chat.DeleteChatMessageResponse')).toMatchObject({ chat_id: msg.chat_id });
    expect(await history(c)).toEqual([]);
    expect(await exported(m)).toEqual([]);
  });

  it("someone else's message, an unknown one, a private one of others: refused, nothing changes", async () => {
    const { m, a, b, c } = await threePages();
    const msg = (await toRoom(a, 'mine')).message as Message;
    const secret = (await toPeers(a, ['peer-bob'], 'secret')).message as Message;
    const before = await exported(m);
    const edit = (s: SdkSocket, chatId: string) =>
      s.request(
        CHAT.editMessage,
        'socket.chat.EditChatMessageRequest',
        { chat_id: chatId, payload_type: TEXT, payload: 'x' },
        'socket.chat.EditChatMessageResponse',
      );
    const del = (s: SdkSocket, chatId: string) =>
      s.request(CHAT.deleteMessage, 'socket.chat.DeleteChatMessageRequest', { chat_id: chatId }, 'socket.chat.DeleteChatMessageResponse');
    await expect(edit(b, msg.chat_id)).rejects.toThrow(`Only its sender may edit chat message ${msg.chat_id}`);
    await expect(del(b, msg.chat_id)).rejects.toThrow(`Only its sender may delete chat message ${msg.chat_id}`);
    await expect(del(a, 'no-such-message')).rejects.toThrow('No chat message found with id no-such-message');
    // Carl does not see the private message: to him it is not there.
    await expect(c.request(CHAT.pinMessage, 'socket.chat.PinChatMessageRequest', { chat_id: secret.chat_id, pinned: true }, null)).rejects.toThrow(
      `No chat message found with id ${secret.chat_id}`,
    );
    await expect(a.request(CHAT.editMessage, 'socket.chat.EditChatMessageRequest', { chat_id: msg.chat_id }, null)).rejects.toThrow(
      'An edit changes the payload or the pin',
    );
    expect(await exported(m)).toEqual(before);
    expect(pushes(c, CHAT.editMessage).length + pushes(c, CHAT.deleteMessage).length + pushes(c, CHAT.pinMessage).length).toBe(0);
  });
});

describe('payloads', () => {
  it('images, files and custom messages go to everyone with their payload type; the export names their kind', async () => {
    const { m, a, b } = await threePages();
    await toRoom(a, 'https://example.test/cat.png', IMAGE);
    await toRoom(a, JSON.stringify({ link: 'https://example.test/a.pdf', name: 'a.pdf', size: 3 }), FILE);
    await toRoom(a, JSON.stringify({ message: 'hi', html: '<b>hi</b>', images: [], videos: [], files: [] }), CUSTOM);
    expect((await history(b)).map((x) => x.payload_type)).toEqual([IMAGE, FILE, CUSTOM]);
    expect((await exported(m)).map((row) => row.split(',')[7])).toEqual(['IMAGE_MESSAGE', 'FILE_MESSAGE', 'CUSTOM_MESSAGE']);
  });

  it('an unknown payload type, a file or custom payload that is not its JSON, an empty or too long text, a preset without files: refused, nothing sent', async () => {
    const { m, a, b } = await threePages();
    const vic = await addPerson(emu, m, 'Vic', 'webinar_viewer');
    const v = await page(m, vic);
    await expect(toRoom(a, 'x', 7)).rejects.toThrow('Unknown chat payload_type 7: 0 text, 1 image, 2 file, 3 custom');
    await expect(toRoom(a, 'not json', FILE)).rejects.toThrow("A file message's payload is a JSON object");
    await expect(toRoom(a, '{"link":"l"}', FILE)).rejects.toThrow('A file message\'s payload is {"link": string, "name": string, "size": number}');
    await expect(toRoom(a, '[1]', CUSTOM)).rejects.toThrow("A custom message's payload is a JSON object");
    await expect(toRoom(a, 'not a link', IMAGE)).rejects.toThrow("An image message's payload is the link to the image");
    await expect(toRoom(a, '')).rejects.toThrow('A chat message cannot be empty');
    await expect(toRoom(a, 'x'.repeat(4001))).rejects.toThrow('A chat message holds at most 4000 characters (this one 4001)');
    await expect(toRoom(v, 'https://example.test/cat.png', IMAGE)).rejects.toThrow(
      'Preset webinar_viewer may not send public files or images (permissions.chat.public.files is false)',
    );
    expect(await history(b)).toEqual([]);
    expect(pushes(b, CHAT.sendMessageToRoom)).toEqual([]);
  });
});

describe('images and files the emulator holds', () => {
  it("a message may link the meeting's uploaded files; an image must be a GIF, JPEG or PNG; another meeting's file or one not uploaded is refused", async () => {
    const { m, ada, a, b } = await threePages();
    const files = emu.deps.services.chatFiles;
    /** A file uploaded as the SDK uploads it, and the link the SDK then puts in its message. */
    const uploaded = (meetingId: string, participantId: string, name: string, type: string | null) => {
      const links = files.reserve(emu.orgId, participantId, meetingId, name);
      if (type !== null) files.upload(links.id, name, type, Buffer.from('bytes'));
      return `https://api.localhost:4443${links.getPath}`;
    };
    const png = uploaded(m, ada.id, 'cat.png', 'image/png');
    const txt = uploaded(m, ada.id, 'notes.txt', 'text/plain');
    await toRoom(a, png, IMAGE);
    await toRoom(a, JSON.stringify({ link: txt, name: 'notes.txt', size: 5 }), FILE);
    expect((await history(b)).map((x) => x.payload_type)).toEqual([IMAGE, FILE]);

    await expect(toRoom(a, txt, IMAGE)).rejects.toThrow('An image message links a GIF, JPEG or PNG image; notes.txt is text/plain');
    const other = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Other' })).id;
    const eve = await addPerson(emu, other, 'Eve');
    const elsewhere = uploaded(other, eve.id, 'eve.png', 'image/png');
    await expect(toRoom(a, elsewhere, IMAGE)).rejects.toThrow(/^Chat file [0-9a-f-]{36} was uploaded for another meeting$/);
    const pending = uploaded(m, ada.id, 'later.png', null);
    await expect(toRoom(a, JSON.stringify({ link: pending, name: 'later.png', size: 1 }), FILE)).rejects.toThrow(
      /^Chat file [0-9a-f-]{36} has not been uploaded yet$/,
    );
    expect(await history(b)).toHaveLength(2);
  });
});

describe('pages of the history', () => {
  it('newest first up to a time, or oldest first from a time; a size, an offset, and whether more follow', async () => {
    const { a } = await threePages();
    const times: number[] = [];
    for (const text of ['one', 'two', 'three', 'four']) {
      times.push(((await toRoom(a, text)).message as Message).created_at_ms);
      await fetch(`${emu.url}/_emulator/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 1000 }),
      });
    }
    const texts = (r: { messages: Message[] }) => r.messages.map((x) => x.payload);
    expect(texts(await paged(a, { time_stamp: times[2]!, reversed: true, size: 2 }))).toEqual(['three', 'two']);
    expect((await paged(a, { time_stamp: times[2]!, reversed: true, size: 2 })).next).toBe(true);
    expect(await paged(a, { time_stamp: times[2]!, reversed: true, size: 2, from: 2 })).toMatchObject({ next: false });
    expect(texts(await paged(a, { time_stamp: times[1]! + 1, reversed: false, size: 10 }))).toEqual(['three', 'four']);
    // No size: a page of 25, as the kits ask.
    expect(texts(await paged(a, { time_stamp: times[3]!, reversed: true, size: 0 }))).toEqual(['four', 'three', 'two', 'one']);
    // Search (RealtimeKit's searchMessages) looks in the texts.
    const found = await a.request(
      CHAT.searchChannelMessages,
      'socket.chat.SearchChatMessagesRequest',
      { time_stamp: times[3]!, size: 10, from: 0, reversed: true, search_term: 'O' },
      'socket.chat.GetChatMessagesResponse',
    );
    expect((found.messages as Message[]).map((x) => x.payload)).toEqual(['four', 'two', 'one']);
  });
});

describe("web-core's chat channels", () => {
  const CHANNELS = 'socket.chat.GetChatChannelResponse';
  interface Channel {
    chat_channel_id: string;
    display_name: string;
    target_user_ids: string[];
    visibility: string;
    is_direct_message: boolean;
    latest_message_and_unread_count: { message?: Message; unread_count: number };
  }

  it('a page makes a channel with others of the meeting; its members chat apart, with unread counts; a change is told to its members', async () => {
    const { m, ada, bob, carl, a, b, c } = await threePages();
    const made = (
      await a.request(
        CHANNEL.createChatChannel,
        'socket.chat.CreateChatChannelRequest',
        { display_name: ' Design ', target_user_ids: [bob.id, ada.id], visibility: 'private', is_direct_message: false },
        CHANNELS,
      )
    ).chat_channels as Channel[];
    expect(made).toEqual([
      {
        chat_channel_id: expect.any(String) as string,
        display_name: 'Design',
        visibility: 'private',
        is_direct_message: false,
        latest_message_and_unread_count: { unread_count: 0 },
        target_user_ids: [ada.id, bob.id],
      },
    ]);
    const id = made[0]!.chat_channel_id;
    expect(((await b.push(CHANNEL.createChatChannel, CHANNELS)).chat_channels as Channel[])[0]!.chat_channel_id).toBe(id);
    expect(pushes(c, CHANNEL.createChatChannel)).toEqual([]);

    const toChannel = (s: SdkSocket, payload: string) =>
      s.request(
        CHAT.sendMessageToChannel,
        'socket.chat.SendChatMessageToChannelRequest',
        { channel_id: id, payload_type: TEXT, payload },
        'socket.chat.SendChatMessageToRoomResponse',
      );
    // Sent to a channel, told as a room message with its channel (where web-core looks for it).
    const sent = (await toChannel(a, 'design notes')).message as Message;
    expect(sent).toMatchObject({ channel_id: id, channel_index: '1', payload: 'design notes', target_user_ids: [] });
    expect((await b.push(CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse')).message).toEqual(sent);
    expect(pushes(c, CHAT.sendMessageToRoom)).toEqual([]);
    expect(await history(b)).toEqual([]);
    expect((await paged(b, { channel_id: id, time_stamp: 0 })).messages.map((x) => x.payload)).toEqual(['design notes']);
    const all = async (s: SdkSocket) => (await s.request(CHAT.getAllChatChannels, null, {}, CHANNELS)).chat_channels as Channel[];
    expect((await all(b))[0]!.latest_message_and_unread_count).toEqual({ message: sent, unread_count: 1 });
    expect((await all(a))[0]!.latest_message_and_unread_count.unread_count).toBe(0);
    expect(await all(c)).toEqual([]);
    const marked = await b.request(
      CHAT.markChannelIndexAsRead,
      'socket.chat.MarkChannelIndexAsReadRequest',
      { channel_id: id, user_id: bob.id, channel_index: '1' },
      'socket.chat.MarkChannelIndexAsReadResponse',
    );
    expect(marked).toEqual({ channel_index: '1' });
    expect((await all(b))[0]!.latest_message_and_unread_count.unread_count).toBe(0);

    // Carl is not a member: the channel is not there for him.
    await expect(toChannel(c, 'let me in')).rejects.toThrow(`No chat channel found with id ${id}`);
    await expect(paged(c, { channel_id: id })).rejects.toThrow(`No chat channel found with id ${id}`);

    const updated = (
      await b.request(
        CHANNEL.updateChatChannel,
        'socket.chat.UpdateChatChannelRequest',
        { chat_channel_id: id, target_user_ids: [ada.id, bob.id, carl.id] },
        CHANNELS,
      )
    ).chat_channels as Channel[];
    expect(updated[0]).toMatchObject({ display_name: 'Design', target_user_ids: [bob.id, ada.id, carl.id] });
    for (const s of [a, c]) expect(((await s.push(CHANNEL.updateChatChannel, CHANNELS)).chat_channels as Channel[])[0]!.chat_channel_id).toBe(id);
    expect((await all(c))[0]!.latest_message_and_unread_count.unread_count).toBe(1);
    const members = await c.request(
      CHANNEL.getChannelMembers,
      'socket.chat.GetChatChannelRequest',
      { chat_channel_id: id },
      'socket.chat.GetChatChannelMembersResponse',
    );
    expect(members.channel_members).toEqual([
      { id: bob.id, name: 'Bob', custom_participant_id: 'bob' },
      { id: ada.id, name: 'Ada', custom_participant_id: 'ada' },
      { id: carl.id, name: 'Carl', custom_participant_id: 'carl' },
    ]);
    // Channel messages are rows of the export like the others.
    expect((await exported(m)).map((row) => row.split(',')[8])).toEqual(['design notes']);
  });

  it('a channel with someone who is no participant of the meeting, without a name, or a read mark for someone else: refused, nothing made', async () => {
    const { m, ada, bob, a, b } = await threePages();
    const other = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Other' })).id;
    const eve = await addPerson(emu, other, 'Eve');
    const create = (name: string, members: string[]) =>
      a.request(
        CHANNEL.createChatChannel,
        'socket.chat.CreateChatChannelRequest',
        { display_name: name, target_user_ids: members, visibility: 'public', is_direct_message: false },
        CHANNELS,
      );
    await expect(create('x', [eve.id])).rejects.toThrow(`No participant found with id ${eve.id} in meeting ${m}`);
    await expect(create('  ', [bob.id])).rejects.toThrow("A channel's name holds 1 to 255 characters");
    expect(pushes(b, CHANNEL.createChatChannel)).toEqual([]);
    expect((await a.request(CHAT.getAllChatChannels, null, {}, CHANNELS)).chat_channels).toEqual([]);
    const made = ((await create('ok', [bob.id])).chat_channels as Channel[])[0]!;
    await expect(
      b.request(
        CHAT.markChannelIndexAsRead,
        'socket.chat.MarkChannelIndexAsReadRequest',
        { channel_id: made.chat_channel_id, user_id: ada.id, channel_index: '1' },
        null,
      ),
    ).rejects.toThrow(`A page marks its own participant's reads, not ${ada.id}'s`);
  });
});
