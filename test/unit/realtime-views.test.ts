// What a page of the web SDK reads of the emulator's state (peers, chat, polls), and the SDK's
// key-value stores: pure pieces of the rooms, pinned here field by field in the SDK's terms.
import { describe, expect, it } from 'vitest';
import type { Participant, SessionChatMessage, SessionPoll } from '../../src/domain/models.js';
import { MAX_KEYS_PER_STORE, MAX_STORES_PER_MEETING, PluginStores } from '../../src/realtime/features/plugin-stores.js';
import { Unserved } from '../../src/realtime/peer.js';
import { SDK_EVENTS } from '../../src/realtime/protocol/events.js';
import { chatView, mediaView, peerView, pollView } from '../../src/realtime/room-views.js';

const { plugin: PLUGIN } = SDK_EVENTS;
const T = '2026-01-01T00:00:00.000Z';
const bytes = (text: string) => new TextEncoder().encode(text);

const ada: Participant = {
  id: 'p-ada',
  orgId: 'org',
  meetingId: 'm1',
  name: 'Ada',
  picture: 'https://example.test/ada.png',
  customParticipantId: 'ada',
  presetId: 'preset-1',
  presetName: 'group_call_host',
  createdAt: 0,
  updatedAt: 0,
  joinedAt: 1,
};

describe('the views a page reads', () => {
  it('a peer: its peer id, the participant as user, where it stands on the stage, never a recorder, a picture only when set', () => {
    expect(peerView(ada, 'peer-1', 'ON_STAGE')).toEqual({
      peer_id: 'peer-1',
      user_id: 'p-ada',
      display_name: 'Ada',
      custom_participant_id: 'ada',
      preset_id: 'preset-1',
      display_picture_url: 'https://example.test/ada.png',
      waitlisted: false,
      stage_type: 1,
      flags: { preset_name: 'group_call_host', recorder_type: 'NONE', hidden_participant: false },
    });
    const nameless = peerView({ ...ada, name: null, picture: null }, 'p-ada', 'ON_STAGE');
    expect(nameless.display_name).toBe('Participant');
    expect('display_picture_url' in nameless).toBe(false);
  });

  it.each([
    ['ON_STAGE', 1],
    ['ACCEPTED_TO_JOIN_STAGE', 2],
    ['REQUESTED_TO_JOIN_STAGE', 3],
    ['OFF_STAGE', 4],
  ] as const)('a peer %s has the stage type %i (socket.room.StageType)', (status, type) => {
    expect(peerView(ada, 'peer-1', status).stage_type).toBe(type);
  });

  it('a media-room participant: the peer, with no producers', () => {
    expect(mediaView(peerView(ada, 'peer-1', 'ON_STAGE'))).toEqual({ peer_id: 'peer-1', display_name: 'Ada', user_id: 'p-ada', producer_states: [] });
  });

  const message: SessionChatMessage = {
    id: 'c1',
    participantId: 'p-ada',
    displayName: null,
    payloadType: 'TEXT_MESSAGE',
    payload: 'hi',
    createdAt: 1_767_225_601_999,
    targets: [],
    channelId: null,
    channelIndex: null,
    pinned: false,
    editedAt: null,
  };

  it('a chat message: text to everyone, its sender as the peer given, its time in seconds and in ms', () => {
    expect(chatView(message, 'peer-1')).toEqual({
      chat_id: 'c1',
      peer_id: 'peer-1',
      user_id: 'p-ada',
      display_name: 'Participant',
      pinned: false,
      is_edited: false,
      payload_type: 0,
      payload: 'hi',
      target_user_ids: [],
      created_at: 1_767_225_601,
      created_at_ms: 1_767_225_601_999,
    });
  });

  it('a chat message: the SDK payload type of each kind, pinned, edited, private to its participants, in a channel with its index', () => {
    const kinds = (['TEXT_MESSAGE', 'IMAGE_MESSAGE', 'FILE_MESSAGE', 'CUSTOM_MESSAGE'] as const).map(
      (t) => chatView({ ...message, payloadType: t }, 'p').payload_type,
    );
    expect(kinds).toEqual([0, 1, 2, 3]);
    expect(chatView({ ...message, pinned: true, editedAt: 5, targets: ['p-ada', 'p-bob'] }, 'p')).toMatchObject({
      pinned: true,
      is_edited: true,
      target_user_ids: ['p-ada', 'p-bob'],
    });
    expect(chatView({ ...message, channelId: 'ch-1', channelIndex: 7 }, 'p')).toMatchObject({ channel_id: 'ch-1', channel_index: '7' });
    expect('channel_id' in chatView(message, 'p')).toBe(false);
  });

  it('a poll: its options with no votes counted', () => {
    const poll: SessionPoll = {
      id: 'poll-1',
      question: 'Lunch?',
      options: ['Yes', 'No'],
      anonymous: true,
      hideVotes: false,
      createdBy: 'p-ada',
      createdAt: 0,
      votes: [],
    };
    expect(pollView(poll, undefined, 'Ada')).toEqual({
      poll_id: 'poll-1',
      created_by: 'Ada',
      created_by_user_id: 'p-ada',
      question: 'Lunch?',
      options: [
        { text: 'Yes', count: 0, votes: [] },
        { text: 'No', count: 0, votes: [] },
      ],
      hide_votes: false,
      anonymous: true,
      votes: [],
    });
  });

  const voted: SessionPoll = {
    id: 'poll-2',
    question: 'Tea?',
    options: ['Green', 'Black', 'None'],
    anonymous: false,
    hideVotes: false,
    createdBy: 'p-ada',
    createdAt: 0,
    votes: [
      { participantId: 'p-bob', name: 'Bob', option: 1, at: 5 },
      { participantId: 'p-cy', name: null, option: 1, at: 6 },
      { participantId: 'p-ada', name: 'Ada', option: 0, at: 7 },
    ],
  };

  it('a poll with votes: each option counts its voters (user id and name, in the order they voted); votes lists who voted', () => {
    expect(pollView(voted, 'p-dan', 'Ada')).toMatchObject({
      options: [
        { text: 'Green', count: 1, votes: [{ user_id: 'p-ada', name: 'Ada' }] },
        {
          text: 'Black',
          count: 2,
          votes: [
            { user_id: 'p-bob', name: 'Bob' },
            { user_id: 'p-cy', name: 'Participant' },
          ],
        },
        { text: 'None', count: 0, votes: [] },
      ],
      votes: ['p-bob', 'p-cy', 'p-ada'],
    });
  });

  it('a poll that hides its votes shows no count and no voters to a page whose participant has not voted; all of them once it has', () => {
    const hidden = { ...voted, hideVotes: true };
    expect(pollView(hidden, 'p-dan', 'Ada')).toMatchObject({
      hide_votes: true,
      options: [
        { text: 'Green', votes: [] },
        { text: 'Black', votes: [] },
        { text: 'None', votes: [] },
      ],
      votes: ['p-bob', 'p-cy', 'p-ada'],
    });
    expect((pollView(hidden, 'p-dan', 'Ada').options as object[]).every((o) => !('count' in o))).toBe(true);
    expect(pollView(hidden, 'p-bob', 'Ada').options).toEqual(pollView(voted, 'p-bob', 'Ada').options);
    expect((pollView(hidden, 'p-bob', 'Ada').options as { count: number }[]).map((o) => o.count)).toEqual([1, 2, 0]);
    // Without a viewer (the organization's view): everything.
    expect((pollView(hidden, undefined, 'Ada').options as { count: number }[]).map((o) => o.count)).toEqual([1, 2, 0]);
  });
});

describe('the SDK key-value stores', () => {
  const ui = { plugin_id: 'm1', store_name: 'ui' };

  it('keeps what is inserted, per meeting and per plugin and store; a read names keys or takes all', () => {
    const stores = new PluginStores();
    stores.change('m1', 'peer-1', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'a', payload: bytes('1') }, { store_key: 'b' }] }, T);
    expect(stores.read('m1', { ...ui, get_keys: [{ store_key: 'b' }] }).store_items).toEqual([
      { timestamp: T, peer_id: 'peer-1', store_key: 'b', payload: new Uint8Array() },
    ]);
    expect(stores.read('m1', { ...ui, get_keys: [] }).store_items.map((i) => i.store_key)).toEqual(['a', 'b']);
    expect(stores.read('m2', { ...ui, get_keys: [] }).store_items).toEqual([]);
    expect(stores.read('m1', { plugin_id: 'm1', store_name: 'other', get_keys: [] }).store_items).toEqual([]);
    // The key of a store is its plugin and its name, not their concatenation.
    expect(stores.read('m1', { plugin_id: 'm1u', store_name: 'i', get_keys: [] }).store_items).toEqual([]);
  });

  it('deletes keys (answering those that were there) and whole stores (answering what they held)', () => {
    const stores = new PluginStores();
    stores.change('m1', 'peer-1', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'a' }, { store_key: 'b' }] }, T);
    const deleted = stores.change('m1', 'peer-2', PLUGIN.storeDeleteKeys, { ...ui, delete_keys: [{ store_key: 'a' }, { store_key: 'zz' }] }, T);
    expect(deleted).toEqual({ ...ui, store_items: [{ timestamp: T, peer_id: 'peer-2', store_key: 'a', payload: new Uint8Array() }] });
    expect(stores.read('m1', { ...ui, get_keys: [] }).store_items.map((i) => i.store_key)).toEqual(['b']);
    const dropped = stores.change('m1', 'peer-2', PLUGIN.storeDelete, ui, T);
    expect(dropped.store_items.map((i) => i.store_key)).toEqual(['b']);
    expect(stores.read('m1', { ...ui, get_keys: [] }).store_items).toEqual([]);
  });

  it('forgets a meeting, or everything', () => {
    const stores = new PluginStores();
    stores.change('m1', 'p', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'a' }] }, T);
    stores.change('m2', 'p', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'a' }] }, T);
    stores.forget('m1');
    expect(stores.read('m1', { ...ui, get_keys: [] }).store_items).toEqual([]);
    expect(stores.read('m2', { ...ui, get_keys: [] }).store_items).toHaveLength(1);
    stores.clear();
    expect(stores.read('m2', { ...ui, get_keys: [] }).store_items).toEqual([]);
  });

  it('holds at most 100 stores per meeting and 1 000 keys per store; replacing a key is not a new one', () => {
    expect([MAX_STORES_PER_MEETING, MAX_KEYS_PER_STORE]).toEqual([100, 1_000]);
    const stores = new PluginStores();
    for (let i = 0; i < 100; i++) stores.change('m1', 'p', PLUGIN.storeInsertKeys, { plugin_id: 'm1', store_name: `s${i}`, insert_keys: [] }, T);
    expect(() => stores.change('m1', 'p', PLUGIN.storeInsertKeys, { plugin_id: 'm1', store_name: 's100', insert_keys: [] }, T)).toThrow(
      new Unserved('A meeting keeps at most 100 stores'),
    );
    const keys = Array.from({ length: 1_000 }, (_, i) => ({ store_key: `k${i}` }));
    stores.change('m2', 'p', PLUGIN.storeInsertKeys, { ...ui, insert_keys: keys }, T);
    stores.change('m2', 'p', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'k0', payload: bytes('again') }] }, T);
    expect(() => stores.change('m2', 'p', PLUGIN.storeInsertKeys, { ...ui, insert_keys: [{ store_key: 'k1000' }] }, T)).toThrow(
      new Unserved('A store keeps at most 1000 keys'),
    );
  });
});
