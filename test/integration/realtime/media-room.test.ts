// The media room's bad input, driven from Node the way the SDK drives the socket, with werift (a
// WebRTC stack in TypeScript) making the page's SDP offers: a request naming another page's
// transport or producer, another meeting's track, a preset that may not publish, more tracks than
// a page may hold, a receive with media off. Each is answered with the SDK's error reply (or, for a
// track that is not there, the consume answer's not_found_track_error), is logged once, and changes
// nothing: the health counts stay as they were. A network test: real sockets on 127.0.0.1.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection } from 'werift';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, restOf } from '../../helpers/web-sdk.js';

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets: SdkSocket[] = [];
const pcs: RTCPeerConnection[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  for (const pc of pcs.splice(0)) await pc.close();
  await emu?.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

async function counts(): Promise<{ transports: number; producers: number; consumers: number }> {
  const { media } = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { transports: number; producers: number; consumers: number } };
  return { transports: media.transports, producers: media.producers, consumers: media.consumers };
}

/** A page in a meeting, joined to the socket room. */
async function page(meetingId: string, name: string, preset = 'group_call_host'): Promise<SdkSocket> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await SdkSocket.open(emu.url, { token: p.token, peerId: `peer-${name.toLowerCase()}`, roomId: meetingId });
  sockets.push(s);
  await s.request(
    ROOM.joinRoom,
    'socket.room.JoinRoomRequest',
    { peer: { peer_id: s.peerId, user_id: p.id, display_name: name }, room_uuid: '' },
    'socket.room.PeerInfoResponse',
  );
  return s;
}

interface Transport {
  pc: RTCPeerConnection;
  id: string;
}

/** One of the page's transports, opened as the SDK opens it: an offer with an audio and a video section. */
async function transport(s: SdkSocket, consuming: boolean): Promise<Transport> {
  const pc = new RTCPeerConnection({ iceServers: [] });
  pcs.push(pc);
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const answer = (await s.request(
    MEDIA.createWebRTCTransport,
    'media.CreateTransportRequest',
    { consuming, description: { type: 'offer', sdp: pc.localDescription!.sdp, target: consuming ? 1 : 0 }, producers: [] },
    'media.CreateTransportResponse',
  )) as { transport_id: string; description: { sdp: string } };
  await pc.setRemoteDescription({ type: 'answer', sdp: answer.description.sdp });
  return { pc, id: answer.transport_id };
}

/** The SDK's produce request for a new section of the send transport (`transportId` names the transport it claims). */
async function produceRequest(send: Transport, kind: 'audio' | 'video', transportId = send.id, withMid = true): Promise<ProtoObject> {
  const t = send.pc.addTransceiver(new MediaStreamTrack({ kind }), { direction: 'sendonly' });
  await send.pc.setLocalDescription(await send.pc.createOffer());
  return {
    kind,
    paused: false,
    screen_share: false,
    description: { type: 'offer', sdp: send.pc.localDescription!.sdp, target: 0 },
    msid: 'stream track',
    app_data: JSON.stringify(withMid ? { mid: t.mid } : {}),
    mime_type: kind === 'audio' ? 'audio/opus' : 'video/VP8',
    producing_transport_id: transportId,
  };
}

async function produce(s: SdkSocket, send: Transport, kind: 'audio' | 'video'): Promise<string> {
  const answer = (await s.request(
    MEDIA.produce,
    'media.edge.ProducerCreateRequest',
    await produceRequest(send, kind),
    'media.edge.ProducerCreateResponse',
  )) as {
    producer_id: string;
    description: { sdp: string };
  };
  await send.pc.setRemoteDescription({ type: 'answer', sdp: answer.description.sdp });
  return answer.producer_id;
}

describe('the media room refuses', () => {
  it("a produce on another page's transport or without its section's mid, and a pause or close of another page's producer; nothing changes, each is logged once", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Refusals' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const adaSend = await transport(ada, false);
    const bobSend = await transport(bob, false);
    const adaMic = await produce(ada, adaSend, 'audio');
    const before = await counts();
    expect(before).toEqual({ transports: 2, producers: 1, consumers: 0 });
    const info = vi.spyOn(emu.deps.logger, 'info');

    await expect(bob.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(bobSend, 'audio', adaSend.id), null)).rejects.toThrow(
      'Produce on this page’s own send transport (create it first)',
    );
    await expect(bob.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(bobSend, 'audio', adaSend.id), null)).rejects.toThrow(
      'Produce on this page’s own send transport',
    );
    await expect(
      bob.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(bobSend, 'video', bobSend.id, false), null),
    ).rejects.toThrow('A produce names its section’s mid in app_data');
    await expect(bob.request(MEDIA.closeProducer, 'media.edge.ProducerCloseRequest', { producer_id: adaMic }, null)).rejects.toThrow(
      `Producer ${adaMic} is not one of this page’s`,
    );
    // A pause is not answered (the SDK awaits none): the refusal is the error reply on its id.
    await expect(bob.request(MEDIA.toggleProducer, 'media.edge.ProducerToggleRequest', { producer_id: adaMic, pause: true }, null)).rejects.toThrow(
      `Producer ${adaMic} is not one of this page’s`,
    );

    expect(await counts()).toEqual(before);
    const refused = info.mock.calls.filter(([, msg]) => msg === 'SDK request refused');
    // One line per kind of problem per socket: two produces on Ada's transport were one kind.
    expect(refused.map(([fields]) => (fields as { event: number }).event)).toEqual([MEDIA.produce, MEDIA.closeProducer, MEDIA.toggleProducer]);
  });

  it("a consume of another meeting's track answers not_found_track_error and adds no consumer", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const here = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Here' })).id;
    const there = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'There' })).id;
    const ada = await page(here, 'Ada');
    const eve = await page(there, 'Eve');
    const adaCam = await produce(ada, await transport(ada, false), 'video');
    const eveRecv = await transport(eve, true);
    const before = await counts();
    const answer = (await eve.request(
      MEDIA.consume,
      'media.edge.ConsumePeersRequest',
      { requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }], consuming_transport_id: eveRecv.id },
      'media.edge.ConsumePeerResponse',
    )) as { consumer_ids_map: { map: Record<string, { error_code?: string; consumer_id: string }> }; description?: unknown };
    expect(answer.consumer_ids_map.map[adaCam]).toMatchObject({ error_code: 'not_found_track_error', consumer_id: '' });
    expect(answer.description).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it('a publish the preset does not allow, naming the preset and the permission', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' })).id;
    const vic = await page(m, 'Vic', 'webinar_viewer');
    const send = await transport(vic, false);
    await expect(vic.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(send, 'video'), null)).rejects.toThrow(
      'The preset webinar_viewer may not produce video (permissions.media.video.can_produce is NOT_ALLOWED)',
    );
    expect((await counts()).producers).toBe(0);
  });

  it('a ninth track from one page (a page publishes at most eight at once)', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Many tracks' })).id;
    const ada = await page(m, 'Ada');
    const send = await transport(ada, false);
    for (let i = 0; i < 8; i++) await produce(ada, send, i % 2 === 0 ? 'audio' : 'video');
    await expect(ada.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(send, 'audio'), null)).rejects.toThrow(
      'A peer publishes at most 8 tracks at once',
    );
    expect((await counts()).producers).toBe(8);
  });

  it('with media off, a receive (and a bot that would publish: 409 MEDIA_OFF)', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', media: 'off' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Off' })).id;
    const ada = await page(m, 'Ada');
    const recv = await transport(ada, true);
    await expect(ada.request(MEDIA.consume, 'media.edge.ConsumePeersRequest', { requests: [], consuming_transport_id: recv.id }, null)).rejects.toThrow(
      'Media is off on this emulator (--media off): no track can be received',
    );
    const bot = await rest<{ id: string }>('POST', `/v2/meetings/${m}/participants`, {
      name: 'Bot',
      preset_name: 'group_call_host',
      custom_participant_id: 'bot',
    });
    const res = await fetch(`${emu.url}/_emulator/meetings/${m}/participants/${bot.id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ media: { video: true } }),
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'MEDIA_OFF',
      message: 'Media is off on this emulator (--media off): start it with --media on for bots that publish',
    });
    // The refused join changed nothing: the bot is not in the meeting.
    const presence = (await (await fetch(`${emu.url}/_emulator/meetings/${m}/presence`)).json()) as { participants: { id: string }[] };
    expect(presence.participants.map((p) => p.id)).not.toContain(bot.id);
  });
});

describe('bots that publish the sample clip (control API)', () => {
  async function post(route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${emu.url}/_emulator${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  it('a join with media publishes the clip; the media route turns camera and microphone on and off; the leave ends them', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bots' })).id;
    const bot = await rest<{ id: string }>('POST', `/v2/meetings/${m}/participants`, {
      name: 'Bot',
      preset_name: 'group_call_host',
      custom_participant_id: 'bot',
    });
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { video: true } })).status).toBe(200);
    expect((await counts()).producers).toBe(1);
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { audio: true })).toEqual({ status: 200, json: { audio: true, video: true } });
    expect((await counts()).producers).toBe(2);
    // Off is a pause: the tracks stay, nothing flows.
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { video: false })).toEqual({ status: 200, json: { audio: true, video: false } });
    expect((await counts()).producers).toBe(2);
    expect((await post(`/meetings/${m}/participants/${bot.id}/leave`)).status).toBe(200);
    expect((await counts()).producers).toBe(0);
  });

  it('the media route answers 409 for a participant not in the meeting, and changes nothing', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bots' })).id;
    const bot = await rest<{ id: string }>('POST', `/v2/meetings/${m}/participants`, {
      name: 'Bot',
      preset_name: 'group_call_host',
      custom_participant_id: 'bot',
    });
    const refused = await post(`/meetings/${m}/participants/${bot.id}/media`, { video: true });
    expect(refused).toEqual({
      status: 409,
      json: { error: { code: 'CONFLICT', message: `Participant ${bot.id} is not in meeting ${m}; join them first` } },
    });
    expect((await counts()).producers).toBe(0);
  });

  it('with media off, a join without media still works', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', media: 'off' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Off' })).id;
    const bot = await rest<{ id: string }>('POST', `/v2/meetings/${m}/participants`, {
      name: 'Bot',
      preset_name: 'group_call_host',
      custom_participant_id: 'bot',
    });
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { audio: false } })).status).toBe(200);
  });
});
