// The chat's pure rules (src/domain/sessions/chat-rules.ts): who sees a message, what a preset lets
// a participant send, which payloads the SDKs can draw, a page of the history, unread counts.
import { describe, expect, it } from 'vitest';
import type { ChatPayloadType, Preset, Session, SessionChatChannel, SessionChatMessage } from '../../src/domain/models.js';
import { presetDocument } from '../../src/domain/presets/preset-document.js';
import { chatPage, payloadProblem, permissionProblem, sees, unreadIn } from '../../src/domain/sessions/chat-rules.js';

const message = (over: Partial<SessionChatMessage>): SessionChatMessage => ({
  id: 'c',
  participantId: 'ada',
  displayName: 'Ada',
  payloadType: 'TEXT_MESSAGE',
  payload: 'hi',
  createdAt: 1000,
  targets: [],
  channelId: null,
  channelIndex: null,
  pinned: false,
  editedAt: null,
  ...over,
});

const channel: SessionChatChannel = {
  id: 'ch',
  name: 'Design',
  pictureUrl: null,
  visibility: 'private',
  isDirectMessage: false,
  members: ['ada', 'bob'],
  createdBy: 'ada',
  createdAt: 0,
  updatedAt: 0,
  lastRead: { bob: 1 },
};

const session = (chat: SessionChatMessage[]): Session => ({
  id: 's',
  orgId: 'o',
  meetingId: 'm',
  startedAt: 0,
  endedAt: null,
  updatedAt: 0,
  endReason: null,
  maxConcurrent: 0,
  participants: [],
  chat,
  channels: [channel],
  transcript: [],
  polls: [],
  summary: null,
});

describe('who sees a message', () => {
  const s = session([]);
  it.each([
    ['a message to everyone', message({}), ['ada', 'bob', 'carl']],
    ['a private one: its participants', message({ targets: ['ada', 'bob'] }), ['ada', 'bob']],
    ["a channel's: its members", message({ channelId: 'ch', channelIndex: 1 }), ['ada', 'bob']],
    ["a channel's that no longer exists: nobody", message({ channelId: 'gone', channelIndex: 1 }), []],
  ])('%s', (_what, m, seers) => {
    expect(['ada', 'bob', 'carl'].filter((p) => sees(s, m, p))).toEqual(seers);
  });
});

describe('what a preset lets a participant send', () => {
  const preset = (chat: Partial<Record<'public' | 'private', Partial<{ can_send: boolean; text: boolean; files: boolean }>>>): Preset => {
    const doc = presetDocument({ permissions: { chat } });
    return { ...doc, id: 'p', name: 'p1', createdAt: 0, updatedAt: 0 };
  };
  it.each<[string, Preset, boolean, ChatPayloadType, string | undefined]>([
    ['the defaults: text to everyone', preset({}), false, 'TEXT_MESSAGE', undefined],
    ['the defaults: a private file', preset({}), true, 'FILE_MESSAGE', undefined],
    [
      'no public sending',
      preset({ public: { can_send: false } }),
      false,
      'TEXT_MESSAGE',
      'Preset p1 may not send public chat messages (permissions.chat.public.can_send is false)',
    ],
    [
      'no private text',
      preset({ private: { text: false } }),
      true,
      'TEXT_MESSAGE',
      'Preset p1 may not send private text messages (permissions.chat.private.text is false)',
    ],
    ['no private text, an image', preset({ private: { text: false } }), true, 'IMAGE_MESSAGE', undefined],
    [
      'no public files, an image',
      preset({ public: { files: false } }),
      false,
      'IMAGE_MESSAGE',
      'Preset p1 may not send public files or images (permissions.chat.public.files is false)',
    ],
    ['no public files, text', preset({ public: { files: false } }), false, 'TEXT_MESSAGE', undefined],
    [
      'no public files, a custom message (text and files)',
      preset({ public: { files: false } }),
      false,
      'CUSTOM_MESSAGE',
      'Preset p1 may not send public files or images (permissions.chat.public.files is false)',
    ],
    [
      'no public text, a custom message',
      preset({ public: { text: false } }),
      false,
      'CUSTOM_MESSAGE',
      'Preset p1 may not send public text messages (permissions.chat.public.text is false)',
    ],
    ['no private sending, to everyone', preset({ private: { can_send: false } }), false, 'TEXT_MESSAGE', undefined],
  ])('%s', (_what, p, privately, type, problem) => {
    expect(permissionProblem(p, privately, type)).toBe(problem);
  });
});

describe('which payloads the SDKs can draw', () => {
  it.each<[ChatPayloadType, string, string | undefined]>([
    ['TEXT_MESSAGE', 'hi', undefined],
    ['TEXT_MESSAGE', '', 'A chat message cannot be empty'],
    ['TEXT_MESSAGE', 'x'.repeat(4000), undefined],
    ['TEXT_MESSAGE', 'x'.repeat(4001), 'A chat message holds at most 4000 characters (this one 4001)'],
    ['IMAGE_MESSAGE', 'https://x.test/a.png', undefined],
    ['FILE_MESSAGE', '{"link":"l","name":"n","size":1}', undefined],
    ['FILE_MESSAGE', '{"link":"l","name":"n"}', 'A file message\'s payload is {"link": string, "name": string, "size": number}'],
    ['FILE_MESSAGE', 'null', "A file message's payload is a JSON object"],
    ['CUSTOM_MESSAGE', '{"message":"hi"}', undefined],
    ['CUSTOM_MESSAGE', '"hi"', "A custom message's payload is a JSON object"],
    ['CUSTOM_MESSAGE', '[{"message":"hi"}]', "A custom message's payload is a JSON object"],
    ['CUSTOM_MESSAGE', 'not json', "A custom message's payload is a JSON object"],
    ['FILE_MESSAGE', '{"name":"n","size":1}', 'A file message\'s payload is {"link": string, "name": string, "size": number}'],
    ['FILE_MESSAGE', '{"link":"l","name":7,"size":1}', 'A file message\'s payload is {"link": string, "name": string, "size": number}'],
  ])('%s %j', (type, payload, problem) => {
    expect(payloadProblem({ type, payload })).toBe(problem);
  });
});

describe('a page of the history', () => {
  const s = session([
    message({ id: '1', createdAt: 1000 }),
    message({ id: '2', createdAt: 2000, targets: ['ada', 'bob'] }),
    message({ id: '3', createdAt: 2000, pinned: true }),
    message({ id: '4', createdAt: 3000, targets: ['ada', 'bob', 'carl'] }),
    message({ id: '5', createdAt: 4000, channelId: 'ch', channelIndex: 1 }),
    message({ id: '6', createdAt: 5000, participantId: 'bob', channelId: 'ch', channelIndex: 2 }),
  ]);
  const ids = (r: { messages: SessionChatMessage[] }) => r.messages.map((m) => m.id);
  const q = { timestamp: 0, size: 25, from: 0, reversed: false };

  it('outside channels, what the viewer sees, oldest first from a time or newest first up to it', () => {
    expect(ids(chatPage(s, 'carl', q))).toEqual(['1', '3', '4']);
    expect(ids(chatPage(s, 'bob', { ...q, timestamp: 2000 }))).toEqual(['2', '3', '4']);
    expect(ids(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true }))).toEqual(['3', '2', '1']);
    expect(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true, size: 2 })).toMatchObject({ next: true });
    expect(ids(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true, size: 2, from: 2 }))).toEqual(['1']);
  });

  it('a conversation of exactly two, the pinned, a search; a channel for its members', () => {
    expect(ids(chatPage(s, 'ada', { ...q, withUser: 'bob' }))).toEqual(['2']);
    const toCarl = message({ id: 'carl', targets: ['ada', 'carl'] });
    expect(ids(chatPage(session([...s.chat, toCarl]), 'ada', { ...q, withUser: 'bob' }))).toEqual(['2']);
    expect(ids(chatPage(s, 'ada', { ...q, pinned: true }))).toEqual(['3']);
    expect(ids(chatPage(s, 'ada', { ...q, channelId: 'ch' }))).toEqual(['5', '6']);
    expect(ids(chatPage(s, 'carl', { ...q, channelId: 'ch' }))).toEqual([]);
    expect(ids(chatPage(session([message({ id: 'a', payload: 'Hello' }), message({ id: 'b', payload: 'bye' })]), 'ada', { ...q, search: 'hELL' }))).toEqual([
      'a',
    ]);
  });

  it('whether more follow: only when the page did not reach the last message', () => {
    expect(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true, size: 3 })).toMatchObject({ next: false });
    expect(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true, size: 1, from: 2 })).toMatchObject({ next: false });
    expect(chatPage(s, 'bob', { ...q, timestamp: 2000, reversed: true, size: 1, from: 1 })).toMatchObject({ next: true });
  });

  it('a page asked for with no size holds 25, and none holds more than 500', () => {
    const many = session(Array.from({ length: 600 }, (_, i) => message({ id: String(i), createdAt: i })));
    expect(chatPage(many, 'ada', { ...q, size: 0 })).toMatchObject({ next: true });
    expect(ids(chatPage(many, 'ada', { ...q, size: 0 }))).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    expect(chatPage(many, 'ada', { ...q, size: 1000 }).messages).toHaveLength(500);
  });

  it('a search finds text messages only, not files or custom messages that contain the words', () => {
    const chat = [
      message({ id: 'text', payload: 'the plan' }),
      message({ id: 'file', payloadType: 'FILE_MESSAGE', payload: '{"link":"l","name":"plan.pdf","size":1}' }),
      message({ id: 'custom', payloadType: 'CUSTOM_MESSAGE', payload: '{"message":"plan"}' }),
    ];
    expect(ids(chatPage(session(chat), 'ada', { ...q, search: 'plan' }))).toEqual(['text']);
  });

  it("a channel's unread messages: after the member's mark, never their own", () => {
    expect(unreadIn(s, channel, 'bob')).toBe(0);
    expect(unreadIn(s, channel, 'ada')).toBe(1);
    expect(unreadIn(s, { ...channel, lastRead: {} }, 'bob')).toBe(1);
  });

  it("another channel's messages do not count in a channel's unread messages", () => {
    const other = message({ id: '7', createdAt: 6000, participantId: 'bob', channelId: 'other', channelIndex: 5 });
    expect(unreadIn(session([...s.chat, other]), channel, 'ada')).toBe(1);
  });
});
