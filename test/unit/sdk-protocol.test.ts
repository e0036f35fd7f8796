import { execFileSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { decode, decodeEnvelope, encode, encodeEnvelope, ProtocolError } from '../../src/realtime/protocol/codec.js';
import { SDK_ERROR_EVENT, SDK_EVENT_NAMES, SDK_EVENTS } from '../../src/realtime/protocol/events.js';
import { PACKAGE_ROOT } from '../../src/core/package-info.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('the socket envelope (message.v1.SocketMessage)', () => {
  it('is written as the SDK writes it: event 1 (varint), id 2, payload 3, metadata 4', () => {
    const wire = encodeEnvelope({ event: 3, id: 'a', payload: bytes(1), metadata: bytes(0x7b, 0x7d) });
    expect([...wire]).toEqual([0x08, 3, 0x12, 1, 0x61, 0x1a, 1, 1, 0x22, 2, 0x7b, 0x7d]);
  });

  it('round-trips, including a media event number above 2^24 and an absent id and metadata', () => {
    const sent = { event: SDK_EVENTS.cfMedia.createWebRTCTransport, id: 'peer-1-abc', payload: bytes(9, 8, 7), metadata: bytes(1) };
    const got = decodeEnvelope(encodeEnvelope(sent));
    expect(got.event).toBe(50331649);
    expect(got.id).toBe('peer-1-abc');
    expect([...got.payload]).toEqual([9, 8, 7]);
    expect([...(got.metadata ?? [])]).toEqual([1]);

    const bare = decodeEnvelope(encodeEnvelope({ event: SDK_EVENTS.room.getRoomInfo, payload: new Uint8Array(0) }));
    expect(bare).toEqual({ event: 5, payload: expect.any(Uint8Array) });
    expect(bare.payload.length).toBe(0);
    expect('id' in bare).toBe(false);
  });
});

describe('the event numbers', () => {
  it('follow (service << 16) + n for the socket services and base | n for the SFUs', () => {
    expect(SDK_EVENTS.room.joinRoom).toBe(3);
    expect(SDK_EVENTS.room.getConnectedRoomsDump).toBe(20);
    expect(SDK_EVENTS.chat.getMessages).toBe(65536);
    expect(SDK_EVENTS.chat.sendMessageToRoom).toBe(65537);
    expect(SDK_EVENTS.plugin.getPlugins).toBe(131072);
    expect(SDK_EVENTS.polls.getPolls).toBe(196609);
    expect(SDK_EVENTS.cfMedia.joinRoom).toBe(50331648 | 16);
    expect(SDK_EVENTS.cfMedia.selfJoinComplete).toBe(50331648 | 20);
    expect(SDK_EVENTS.media.createWebRTCTransport).toBe(16777216 | 1);
    expect(SDK_ERROR_EVENT).toBe(65535);
    expect(SDK_EVENT_NAMES.get(50331648 | 25)).toBe('cfMedia.peerJoinedBroadcast');
  });

  it('name every number once', () => {
    const all = Object.values(SDK_EVENTS).flatMap((t) => Object.values(t) as number[]);
    expect(new Set(all).size).toBe(all.length);
    expect(SDK_EVENT_NAMES.size).toBe(all.length);
  });
});

describe('the join flow messages', () => {
  it('socket.room.JoinRoomRequest → PeerInfoResponse, with snake_case names, enums as numbers and defaults filled', () => {
    const request = {
      peer: { peer_id: 'p1', user_id: 'u1', display_name: 'Ada', waitlisted: false, custom_participant_id: 'c1' },
      room_uuid: '',
      capabilities: [2],
    };
    // peer (field 1) holds peer_id 'p1' first: the bytes the SDK would send.
    const wire = encode('socket.room.JoinRoomRequest', request);
    expect([...wire.slice(0, 6)]).toEqual([0x0a, wire[1], 0x0a, 2, 0x70, 0x31]);
    const back = decode('socket.room.JoinRoomRequest', wire);
    expect(back).toMatchObject({ room_uuid: '', capabilities: [2], peer: { peer_id: 'p1', user_id: 'u1', display_name: 'Ada', custom_participant_id: 'c1' } });
    expect(back).not.toHaveProperty('timestamp');
    expect(back).not.toHaveProperty('organization_id');

    const answer = {
      peer: {
        peer_id: 'p1',
        user_id: 'u1',
        display_name: 'Ada',
        stage_type: 1,
        flags: { preset_name: 'host', recorder_type: 'NONE', hidden_participant: false },
      },
    };
    const peer = decode('socket.room.PeerInfoResponse', encode('socket.room.PeerInfoResponse', answer)).peer as Record<string, unknown>;
    expect(peer).toMatchObject({ peer_id: 'p1', stage_type: 1, waitlisted: false, flags: { preset_name: 'host', recorder_type: 'NONE' } });
  });

  it('socket.room.RoomInfoResponse keeps a 64-bit created_at as a number', () => {
    const room = { room_id: 'r1', title: 'Standup', created_at: 1_790_000_000_000, active_recordings: [] };
    const back = decode('socket.room.RoomInfoResponse', encode('socket.room.RoomInfoResponse', { room }));
    expect(back.room).toEqual({ ...room, active_recordings: [] });
  });

  it('chat: SendChatMessageToRoomRequest and the ChatMessage pushed back', () => {
    const sent = decode('socket.chat.SendChatMessageToRoomRequest', encode('socket.chat.SendChatMessageToRoomRequest', { payload_type: 0, payload: 'hi' }));
    expect(sent).toEqual({ payload_type: 0, payload: 'hi' });
    const message = { chat_id: 'c1', peer_id: 'p1', user_id: 'u1', display_name: 'Ada', payload_type: 0, payload: 'hi', created_at: 1_790_000_000 };
    const pushed = decode('socket.chat.SendChatMessageToRoomResponse', encode('socket.chat.SendChatMessageToRoomResponse', { message }));
    expect(pushed.message).toMatchObject({ ...message, pinned: false, is_edited: false, target_user_ids: [] });
  });

  it('the SFU transport: media.CreateTransportRequest and Response', () => {
    const request = { consuming: false, description: { target: 0, type: 'offer', sdp: 'v=0\r\n' }, producers: [] };
    expect(decode('media.CreateTransportRequest', encode('media.CreateTransportRequest', request))).toEqual(request);
    const response = { transport_id: 't1', description: { target: 0, type: 'answer', sdp: 'v=0\r\n' }, producer_ids: ['x'] };
    expect(decode('media.CreateTransportResponse', encode('media.CreateTransportResponse', response))).toEqual(response);
  });

  it('encodes an empty object for any message (every field may be left out)', () => {
    expect(encode('media.edge.PeerJoinCompleteResponse', {}).length).toBe(0);
    expect(decode('media.edge.PeerJoinCompleteResponse', new Uint8Array(0))).toEqual({ participants: [], max_preferred_streams: 0 });
    // An absent sub-message stays absent (not null), at any depth.
    const rooms = { parent_meeting: { id: 'm0', participants: [{ id: 'p1' }] }, meetings: [{ participants: [] }] };
    expect(decode('socket.room.GetConnectedRoomsDumpResponse', encode('socket.room.GetConnectedRoomsDumpResponse', rooms))).toEqual(rooms);
  });
});

describe('bad input', () => {
  it('malformed bytes throw a ProtocolError', () => {
    // A length-delimited field that claims 5 bytes and has 1; a varint that never ends.
    for (const junk of [bytes(0x0a, 5, 1), bytes(0xff), bytes(0x08, 0x80, 0x80)]) {
      expect(() => decodeEnvelope(junk)).toThrow(ProtocolError);
      expect(() => decode('socket.room.JoinRoomRequest', junk)).toThrow(ProtocolError);
    }
  });

  it('an unknown type or an object that cannot be the message throw a ProtocolError', () => {
    expect(() => decode('socket.room.NoSuchThing', new Uint8Array(0))).toThrow(ProtocolError);
    expect(() => encode('socket.room.PeerInfoResponse', { peer: 'not an object' })).toThrow(ProtocolError);
  });
});

describe('the generated protocol files', () => {
  it('are what scripts/sdk-protos.mjs makes from the installed SDKs', () => {
    const script = path.join(PACKAGE_ROOT, 'scripts', 'sdk-protos.mjs');
    // Exit status 1 (thrown here) when stale; its output names the stale files.
    expect(execFileSync(process.execPath, [script, '--check'], { cwd: PACKAGE_ROOT, encoding: 'utf8' })).toMatch(/Up to date/);
  });
});
