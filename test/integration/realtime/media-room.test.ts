// The media room's bad input, driven from Node the way the SDK drives the socket, with werift (a
// WebRTC stack in TypeScript) making the page's SDP offers: a request naming another page's
// transport or producer, another meeting's transport or track, a preset that may not publish, more
// tracks than a page may hold, a receive with media off. Each is answered with the SDK's error reply
// (or, for a track that is not there, the consume answer's not_found_track_error), is logged once,
// and changes nothing: the health counts stay as they were. And what the media room releases: a
// page whose transports fail for good, everything at the emulator's stop (its UDP sockets too), a
// page closed for flooding the socket with media requests. These run the media plane in the test's
// own process (--media-plane inline), so that they can watch its endpoints and UDP sockets; the
// last part runs it as it runs by default, in a process of its own, and shows that process start
// with the first transport and end when the room holds nothing. A network test: real sockets on
// 127.0.0.1, real time where werift's own timers decide.
import { createSocket } from 'node:dgram';
import { connect, createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaStreamTrack, Message, RTCPeerConnection, classes, methods } from 'werift';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { decode, encode, encodeEnvelope, type ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { WebRtcTransport } from '../../../src/realtime/media/plane/transport.js';
import { MAX_FRAMES_PER_SECOND, Peer } from '../../../src/realtime/peer.js';
import { processExists } from '../../helpers/proc-sockets.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, controlOf, restOf } from '../../helpers/web-sdk.js';

const { cfMedia: MEDIA } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets = new PageSockets();
const pcs: RTCPeerConnection[] = [];

afterEach(async () => {
  sockets.terminate();
  for (const pc of pcs.splice(0)) await pc.close();
  await emu?.close();
  // werift frees a page endpoint's sockets a moment after its close: the next test counts from none.
  await udpSocketsDownTo(0);
  vi.restoreAllMocks();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

/** A POST to the control API (`route` below /_emulator): its status and JSON body. */
const post = (route: string, body?: unknown) => controlOf(emu)('POST', `/_emulator${route}`, body);

async function counts(): Promise<{ transports: number; producers: number; consumers: number }> {
  const { media } = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { transports: number; producers: number; consumers: number } };
  return { transports: media.transports, producers: media.producers, consumers: media.consumers };
}

/** A page in a meeting, joined to the socket room. */
async function page(meetingId: string, name: string, preset = 'group_call_host'): Promise<SdkSocket> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await sockets.open(emu.url, meetingId, p);
  await s.joinRoom(p);
  return s;
}

interface Transport {
  pc: RTCPeerConnection;
  id: string;
  /** The emulator's UDP ports its answer named (its host candidates). */
  ports: { address: string; port: number; family: 4 | 6 }[];
  /** The emulator's TCP ports its answer named (its passive host candidates). */
  tcpPorts: { address: string; port: number }[];
}

/** A page's endpoint as the SDK opens one: an offer with an audio and a video section, its candidates gathered. */
async function endpoint(): Promise<RTCPeerConnection> {
  const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
  pcs.push(pc);
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return pc;
}

/** One of the page's transports, opened as the SDK opens it (`rewrite` changes the SDP the page sends). */
async function transport(s: SdkSocket, consuming: boolean, rewrite: (sdp: string) => string = (sdp) => sdp, opened?: RTCPeerConnection): Promise<Transport> {
  const pc = opened ?? (await endpoint());
  const answer = (await s.request(
    MEDIA.createWebRTCTransport,
    'media.CreateTransportRequest',
    { consuming, description: { type: 'offer', sdp: rewrite(pc.localDescription!.sdp), target: consuming ? 1 : 0 }, producers: [] },
    'media.CreateTransportResponse',
  )) as { transport_id: string; description: { sdp: string } };
  await pc.setRemoteDescription({ type: 'answer', sdp: answer.description.sdp });
  const ports = [...answer.description.sdp.matchAll(/^a=candidate:\S+ \d+ udp \d+ (\S+) (\d+) typ host/gm)].map(([, address, port]) => ({
    address: address!,
    port: Number(port),
    family: address!.includes(':') ? (6 as const) : (4 as const),
  }));
  const tcpPorts = [...answer.description.sdp.matchAll(/^a=candidate:\S+ \d+ tcp \d+ (\S+) (\d+) typ host tcptype passive/gm)].map(([, address, port]) => ({
    address: address!,
    port: Number(port),
  }));
  return { pc, id: answer.transport_id, ports, tcpPorts };
}

/** The SDK's produce request for a new section of the send transport (`transportId` names the transport it claims). */
async function produceRequest(
  send: Transport,
  kind: 'audio' | 'video',
  transportId = send.id,
  withMid = true,
  rewrite: (sdp: string) => string = (sdp) => sdp,
): Promise<ProtoObject> {
  const t = send.pc.addTransceiver(new MediaStreamTrack({ kind }), { direction: 'sendonly' });
  await send.pc.setLocalDescription(await send.pc.createOffer());
  return {
    kind,
    paused: false,
    screen_share: false,
    description: { type: 'offer', sdp: rewrite(send.pc.localDescription!.sdp), target: 0 },
    msid: 'stream track',
    app_data: JSON.stringify(withMid ? { mid: t.mid } : {}),
    mime_type: kind === 'audio' ? 'audio/opus' : 'video/VP8',
    producing_transport_id: transportId,
  };
}

async function produce(s: SdkSocket, send: Transport, kind: 'audio' | 'video', rewrite?: (sdp: string) => string): Promise<string> {
  const answer = (await s.request(
    MEDIA.produce,
    'media.edge.ProducerCreateRequest',
    await produceRequest(send, kind, send.id, true, rewrite),
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
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
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

  it("a consume, a renegotiation or a close of consumers naming another page's transport, or another meeting's; nothing changes", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const here = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Here' })).id;
    const there = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'There' })).id;
    const ada = await page(here, 'Ada');
    const bob = await page(here, 'Bob');
    const eve = await page(there, 'Eve');
    const adaSend = await transport(ada, false);
    const adaCam = await produce(ada, adaSend, 'video');
    const adaRecv = await transport(ada, true);
    const eveRecv = await transport(eve, true);
    const bobRecv = await transport(bob, true);
    const before = await counts();
    expect(before).toEqual({ transports: 4, producers: 1, consumers: 0 });
    const info = vi.spyOn(emu.deps.logger, 'info');
    const error = vi.spyOn(emu.deps.logger, 'error');

    // Bob asks for Ada's camera on Ada's receive transport, and Eve (another meeting) on hers.
    for (const [s, theirs] of [
      [bob, adaRecv],
      [eve, adaRecv],
    ] as const)
      await expect(
        s.request(
          MEDIA.consume,
          'media.edge.ConsumePeersRequest',
          { requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }], consuming_transport_id: theirs.id },
          null,
        ),
      ).rejects.toThrow('Consume on this page’s own receive transport (create it first)');
    // A renegotiation naming another page's transport (an answer or an offer, send or receive), of this meeting or another.
    for (const [s, theirs, type] of [
      [bob, adaRecv, 'answer'],
      [bob, adaSend, 'offer'],
      [ada, eveRecv, 'answer'],
      [eve, adaSend, 'offer'],
    ] as const) {
      const description = { type, sdp: theirs.pc.localDescription!.sdp, target: 1 };
      await expect(s.request(MEDIA.renegotiateSessionDescription, 'media.RenegotiateRequest', { transport_id: theirs.id, description }, null)).rejects.toThrow(
        `Transport ${theirs.id} is not this page’s`,
      );
    }
    // A close of consumers on another page's receive transport.
    await expect(
      bob.request(MEDIA.closeConsumer, 'media.edge.ConsumerCloseRequest', { consumer_ids: ['0', '1'], consuming_transport_id: adaRecv.id }, null),
    ).rejects.toThrow('Close consumers on this page’s own receive transport');

    expect(await counts()).toEqual(before);
    expect(error).not.toHaveBeenCalled();
    const refused = info.mock.calls.filter(([, msg]) => msg === 'SDK request refused').map(([fields]) => fields as { peer: string; event: number });
    expect(refused).toEqual([
      expect.objectContaining({ peer: bob.peerId, event: MEDIA.consume }),
      expect.objectContaining({ peer: eve.peerId, event: MEDIA.consume }),
      expect.objectContaining({ peer: bob.peerId, event: MEDIA.renegotiateSessionDescription }),
      expect.objectContaining({ peer: ada.peerId, event: MEDIA.renegotiateSessionDescription }),
      expect.objectContaining({ peer: eve.peerId, event: MEDIA.renegotiateSessionDescription }),
      expect.objectContaining({ peer: bob.peerId, event: MEDIA.closeConsumer }),
    ]);
    // Bob's own transport still serves him: the refusals took nothing from him.
    const answer = (await bob.request(
      MEDIA.consume,
      'media.edge.ConsumePeersRequest',
      { requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }], consuming_transport_id: bobRecv.id },
      'media.edge.ConsumePeerResponse',
    )) as { consumer_ids_map: { map: Record<string, { consumer_id: string }> } };
    expect(answer.consumer_ids_map.map[adaCam]!.consumer_id).not.toBe('');
    expect(await counts()).toEqual({ ...before, consumers: 1 });
  });

  it("a consume of another meeting's track answers not_found_track_error and adds no consumer", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
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
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Webinar' })).id;
    const vic = await page(m, 'Vic', 'webinar_viewer');
    const send = await transport(vic, false);
    await expect(vic.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', await produceRequest(send, 'video'), null)).rejects.toThrow(
      'The preset webinar_viewer may not produce video (permissions.media.video.can_produce is NOT_ALLOWED)',
    );
    expect((await counts()).producers).toBe(0);
  });

  it('a ninth track from one page (a page publishes at most eight at once)', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
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
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline', media: 'off' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Off' })).id;
    const ada = await page(m, 'Ada');
    const recv = await transport(ada, true);
    await expect(ada.request(MEDIA.consume, 'media.edge.ConsumePeersRequest', { requests: [], consuming_transport_id: recv.id }, null)).rejects.toThrow(
      'Media is off on this emulator (--media off): no track can be received',
    );
    const bot = await addPerson(emu, m, 'Bot');
    const res = await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { video: true } });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'MEDIA_OFF',
      message: 'Media is off on this emulator (--media off): start it with --media on for bots that publish',
    });
    // The refused join changed nothing: the bot is not in the meeting.
    const presence = (await (await fetch(`${emu.url}/_emulator/meetings/${m}/presence`)).json()) as { participants: { id: string }[] };
    expect(presence.participants.map((p) => p.id)).not.toContain(bot.id);
  });
});

/** Waits, on real time, until `read` answers what `ok` accepts; answers the last reading (the test's own expect then says what differs). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, limitMs = 15_000): Promise<T> {
  const deadline = performance.now() + limitMs;
  let value = await read();
  while (!ok(value) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** The UDP sockets open in this process (the emulator's and the test's own werift endpoints; a closed one is counted until the event loop's next turn). */
const udpSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'UDPWrap').length;

/** The UDP sockets open in this process, once they are down to `n` (or the wait ran out: the test's expect then says how many). */
const udpSocketsDownTo = (n: number): Promise<number> =>
  eventually(
    async () => udpSockets(),
    (count) => count === n,
  );

/** Whether a UDP port is taken on the machine's every address (werift listens there): a bind of our own fails. */
async function taken({ port, family }: { port: number; family: 4 | 6 }): Promise<boolean> {
  const socket = createSocket({ type: family === 6 ? 'udp6' : 'udp4', ipv6Only: family === 6 });
  return new Promise((resolve) => {
    socket.once('error', () => socket.close(() => resolve(true)));
    socket.bind({ port, address: family === 6 ? '::' : '0.0.0.0', exclusive: true }, () => socket.close(() => resolve(false)));
  });
}

/** The TCP listeners open in this process (the emulator's HTTP listener, and the media plane's while it runs inline). */
const tcpListeners = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

/** Whether a TCP port is taken on the machine's every address: a listen of our own fails. */
async function takenTcp(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(true));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** The page's SDP as a page with another certificate would send it: the emulator's DTLS then refuses the page's real one. */
const forged = (sdp: string) => sdp.replace(/^a=fingerprint:sha-256 .*$/gm, `a=fingerprint:sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`);

const sameCounts = (a: object) => (b: object) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The flood limit counts frames per second of real time; on a loaded machine the emulator may read
 * a burst more slowly than the limit. These tests are about what a flood leaves behind, so a page
 * floods here once it sent more than the limit's frames, however long they took to read (the
 * window itself is tested with a clock of its own in the unit tests of Peer).
 */
function floodByCount(): void {
  const sent = new WeakMap<Peer, number>();
  vi.spyOn(Peer.prototype, 'flooding').mockImplementation(function (this: Peer) {
    const n = (sent.get(this) ?? 0) + 1;
    sent.set(this, n);
    return n > MAX_FRAMES_PER_SECOND;
  });
}

describe('the shared media port', () => {
  it("drops what no transport can claim (strangers' packets, a check with a wrong password, a TCP connection that proves nothing), tells it once, and the pages' media goes on", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const warn = vi.spyOn(emu.deps.logger, 'warn');
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Strangers' })).id;
    const ada = await page(m, 'Ada');
    const send = await transport(ada, false);
    expect(
      await eventually(
        async () => send.pc.connectionState,
        (state) => state === 'connected',
      ),
    ).toBe('connected');
    const { media } = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { listening: { udp_port: number; tcp_port: number } } };
    const ufrag = /^a=ice-ufrag:(\S+)/m.exec(send.pc.remoteDescription!.sdp)![1]!;

    // A stranger sends junk, then a check naming Ada's transport signed with a password it does not know.
    const stranger = createSocket('udp4');
    await new Promise<void>((resolve) => stranger.bind(0, '127.0.0.1', resolve));
    const forged = new Message(methods.BINDING, classes.REQUEST)
      .setAttribute('USERNAME', `${ufrag}:strg`)
      .addMessageIntegrity(Buffer.from('not the password'))
      .addFingerprint();
    const sent = (data: Buffer) => new Promise<void>((resolve) => stranger.send(data, media.listening.udp_port, '127.0.0.1', () => resolve()));
    for (let i = 0; i < 200; i++) await sent(Buffer.from([0x80, 0x60, i, i, 1, 2, 3, 4, 5, 6, 7, 8]));
    await sent(forged.bytes);
    // The forged check is not answered: nothing comes back to the stranger.
    const answered = await new Promise<boolean>((resolve) => {
      stranger.once('message', () => resolve(true));
      void sent(forged.bytes);
      setTimeout(() => resolve(false), 500);
    });
    stranger.close();
    expect(answered).toBe(false);

    // A TCP connection whose first frame proves nothing is closed at once.
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(media.listening.tcp_port, '127.0.0.1', () => socket.write(Buffer.from([0, 4, 1, 2, 3, 4])));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000);
    });
    expect(closed).toBe(true);

    // Told once, not once a packet.
    const told = warn.mock.calls.filter(([, msg]) => msg === 'media port: packets from a sender no transport knows are dropped');
    expect(told).toHaveLength(1);
    expect(told[0]![0]).toMatchObject({ transport: 'udp', dropped: 1 });
    // Ada's transport is untouched: still connected, and it still carries what she publishes.
    expect(send.pc.connectionState).toBe('connected');
    await produce(ada, send, 'audio');
    expect(await counts()).toEqual({ transports: 1, producers: 1, consumers: 0 });
  });
  it.each([
    ['UDP', false],
    ['TCP', true],
  ] as const)('carries an ICE restart of a page over %s: new credentials, the same ports, and the page connected again', async (_kind, tcp) => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Restart' })).id;
    const ada = await page(m, 'Ada');
    // Over TCP the page is offered the emulator's TCP candidates only, as a browser that cannot send UDP is left with them.
    const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', iceUseTcp: tcp });
    pcs.push(pc);
    pc.addTransceiver('audio', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const onlyTcp = (sdp: string) => (tcp ? sdp.replace(/^a=candidate:\S+ \d+ udp .*\r?\n/gm, '') : sdp);
    const answer = (await ada.request(
      MEDIA.createWebRTCTransport,
      'media.CreateTransportRequest',
      { consuming: false, description: { type: 'offer', sdp: pc.localDescription!.sdp, target: 0 }, producers: [] },
      'media.CreateTransportResponse',
    )) as { transport_id: string; description: { sdp: string } };
    await pc.setRemoteDescription({ type: 'answer', sdp: onlyTcp(answer.description.sdp) });
    expect(
      await eventually(
        async () => pc.connectionState,
        (state) => state === 'connected',
      ),
    ).toBe('connected');
    const selected = () => pc.iceTransports[0]!.connection.nominated?.localCandidate.transport;
    expect(selected()).toBe(tcp ? 'tcp' : 'udp');

    // The page restarts ICE: a new offer with new credentials, as a renegotiation of its transport.
    pc.restartIce();
    await pc.setLocalDescription(await pc.createOffer());
    const restarted = (await ada.request(
      MEDIA.renegotiateSessionDescription,
      'media.RenegotiateRequest',
      { transport_id: answer.transport_id, description: { type: 'offer', sdp: pc.localDescription!.sdp, target: 0 } },
      'media.RenegotiateResponse',
    )) as { description: { sdp: string } };
    const ufrag = (sdp: string) => /^a=ice-ufrag:(\S+)/m.exec(sdp)![1];
    const candidates = (sdp: string) =>
      [...sdp.matchAll(/^a=candidate:\S+ \d+ (\w+) \d+ (\S+) (\d+) typ host/gm)].map(([, t, a, p]) => `${t} ${a} ${p}`).sort();
    expect(ufrag(restarted.description.sdp)).not.toBe(ufrag(answer.description.sdp));
    expect(candidates(restarted.description.sdp)).toEqual(candidates(answer.description.sdp));
    await pc.setRemoteDescription({ type: 'answer', sdp: onlyTcp(restarted.description.sdp) });
    // The page's agent nominates again only once the emulator has answered a check made with the new
    // credentials. (werift as the page runs no checks after its own restart while its DTLS is up, where
    // a browser does: the test starts them.)
    const agent = pc.iceTransports[0]!.connection;
    expect(agent.remoteUsername).toBe(ufrag(restarted.description.sdp));
    void pc.iceTransports[0]!.start().catch(() => undefined);
    expect(await eventually(async () => agent.nominated !== undefined && ['connected', 'completed'].includes(pc.iceConnectionState), Boolean)).toBe(true);
    expect(selected()).toBe(tcp ? 'tcp' : 'udp');
    expect(await counts()).toEqual({ transports: 1, producers: 0, consumers: 0 });
  });

  it('with a range, gives each transport a UDP port of its own, refuses one past the range, and takes a port back when its transport closes', async () => {
    const from = await freeRange(2);
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline', mediaPort: { from, to: from + 1 } });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Range' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const adaSend = await transport(ada, false);
    const bobSend = await transport(bob, false);
    const udpPorts = (t: Transport) => [...new Set(t.ports.map((p) => p.port))];
    expect([...udpPorts(adaSend), ...udpPorts(bobSend)].sort()).toEqual([from, from + 1]);
    // The TCP listener, shared, on the range's first port.
    expect([...new Set([...adaSend.tcpPorts, ...bobSend.tcpPorts].map((p) => p.port))]).toEqual([from]);
    expect(
      await eventually(
        async () => adaSend.pc.connectionState,
        (state) => state === 'connected',
      ),
    ).toBe('connected');
    // A third transport finds the range full: the page is told why.
    await expect(transport(ada, true)).rejects.toThrow(`every UDP port of the range ${from}-${from + 1} is taken (--media-port)`);
    expect(await counts()).toEqual({ transports: 2, producers: 0, consumers: 0 });
    // Bob leaves: his port is free again, for the next transport.
    await bob.close();
    expect(await eventually(counts, sameCounts({ transports: 1, producers: 0, consumers: 0 }))).toEqual({ transports: 1, producers: 0, consumers: 0 });
    const adaRecv = await transport(ada, true);
    expect(udpPorts(adaRecv)).toEqual(udpPorts(bobSend));
  });
});

/** The first of `n` ports in a row free for UDP on the loopback, the first of them free for TCP too. */
async function freeRange(n: number): Promise<number> {
  for (;;) {
    const server = createServer();
    const from = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (from + n > 65535) continue;
    const sockets = Array.from({ length: n }, () => createSocket('udp4'));
    const bound = await Promise.all(
      sockets.map(
        (socket, i) =>
          new Promise<boolean>((resolve) => {
            socket.once('error', () => resolve(false));
            socket.bind(from + i, '127.0.0.1', () => resolve(true));
          }),
      ),
    );
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
    if (bound.every(Boolean)) return from;
  }
}

describe('the media room releases', () => {
  it('a publishing and receiving page whose transports fail for good (its certificate is refused), after the grace period; the others are told', async () => {
    // A grace period of 1.5 s (5 s unless told): werift says a transport failed well within it.
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline', mediaFailedGraceMs: 1_500 });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Failing' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    for (const s of [ada, bob]) await s.request(MEDIA.selfJoinComplete, null, {}, 'media.edge.PeerJoinCompleteResponse');
    const adaCam = await produce(ada, await transport(ada, false), 'video');
    // Bob's page connects (ICE succeeds), but every SDP it sends names a certificate it does not hold.
    // Its transports cannot fail before this moment.
    const connecting = performance.now();
    const bobSend = await transport(bob, false, forged);
    const bobMic = await produce(bob, bobSend, 'audio', forged);
    const bobRecv = await transport(bob, true, forged);
    const consumed = (await bob.request(
      MEDIA.consume,
      'media.edge.ConsumePeersRequest',
      { requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }], consuming_transport_id: bobRecv.id },
      'media.edge.ConsumePeerResponse',
    )) as { description: { sdp: string } };
    await bobRecv.pc.setRemoteDescription({ type: 'offer', sdp: consumed.description.sdp });
    await bobRecv.pc.setLocalDescription(await bobRecv.pc.createAnswer());
    await bob.request(
      MEDIA.renegotiateSessionDescription,
      'media.RenegotiateRequest',
      { transport_id: bobRecv.id, description: { type: 'answer', sdp: forged(bobRecv.pc.localDescription!.sdp), target: 1 } },
      'media.RenegotiateResponse',
    );
    expect(await counts()).toEqual({ transports: 3, producers: 2, consumers: 1 });
    const info = vi.spyOn(emu.deps.logger, 'info');

    // Released only once werift has reported them failed for the whole grace period.
    expect(await eventually(counts, sameCounts({ transports: 1, producers: 1, consumers: 0 }))).toEqual({ transports: 1, producers: 1, consumers: 0 });
    expect(performance.now() - connecting).toBeGreaterThanOrEqual(1_500);
    const released = info.mock.calls.filter(([, msg]) => msg === 'SDK media transport failed; released').map(([fields]) => fields as { direction: string });
    // Each once, in whichever order their handshakes failed.
    expect(released.sort((a, b) => a.direction.localeCompare(b.direction))).toEqual([
      { peer: bob.peerId, direction: 'recv' },
      { peer: bob.peerId, direction: 'send' },
    ]);
    const closed = await ada.push(MEDIA.peerProducerCloseBroadcast, 'media.edge.PeerProducerCloseBroadcastResponse');
    expect(closed).toMatchObject({ participant_id: bob.peerId, producer_state: { producer_id: bobMic } });
    // Bob is still in the room; once Ada leaves too, nothing is open.
    await ada.close();
    expect(await eventually(counts, sameCounts({ transports: 0, producers: 0, consumers: 0 }))).toEqual({ transports: 0, producers: 0, consumers: 0 });
  });

  it("the emulator's stop frees every transport, producer and consumer, and the UDP socket and TCP listener every transport shared", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Stop' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    // The pages' own endpoints first: what is open past them is the emulator's.
    const pages = [await endpoint(), await endpoint(), await endpoint(), await endpoint()];
    const ours = udpSockets();
    const ourListeners = tcpListeners();
    const [adaSend, adaRecv, bobSend, bobRecv] = [
      await transport(ada, false, undefined, pages[0]),
      await transport(ada, true, undefined, pages[1]),
      await transport(bob, false, undefined, pages[2]),
      await transport(bob, true, undefined, pages[3]),
    ];
    const adaCam = await produce(ada, adaSend, 'video');
    const bobMic = await produce(bob, bobSend, 'audio');
    for (const [s, recv, publisher, producerId] of [
      [bob, bobRecv, ada, adaCam],
      [ada, adaRecv, bob, bobMic],
    ] as const)
      await s.request(
        MEDIA.consume,
        'media.edge.ConsumePeersRequest',
        { requests: [{ producing_peer_id: publisher.peerId, producer_id: producerId }], consuming_transport_id: recv.id },
        'media.edge.ConsumePeerResponse',
      );
    // A bot publishes too (its clip has no socket of its own).
    const bot = await addPerson(emu, m, 'Bot');
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { audio: true, video: true } })).status).toBe(200);
    expect(await counts()).toEqual({ transports: 4, producers: 4, consumers: 2 });
    // Every transport names the same two ports, on the loopback only: one UDP socket and one TCP listener carry them all.
    const all = [adaSend, adaRecv, bobSend, bobRecv];
    const [udp] = adaSend.ports;
    const [tcp] = adaSend.tcpPorts;
    for (const t of all) {
      expect(new Set(t.ports.map((p) => `${p.address} ${p.port}`))).toEqual(new Set([`127.0.0.1 ${udp!.port}`]));
      expect(new Set(t.tcpPorts.map((p) => `${p.address} ${p.port}`))).toEqual(new Set([`127.0.0.1 ${tcp!.port}`]));
    }
    expect(await taken(udp!)).toBe(true);
    expect(await takenTcp(tcp!.port)).toBe(true);
    expect(
      await eventually(
        async () => udpSockets() - ours,
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(tcpListeners() - ourListeners).toBe(1);
    const health = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { listening: unknown } };
    expect(health.media.listening).toEqual({
      address: '127.0.0.1',
      candidates: ['127.0.0.1'],
      udp_port: udp!.port,
      udp_port_range: null,
      tcp_port: tcp!.port,
      open: true,
    });

    await emu.close();
    expect(emu.deps.signalling.mediaCounts()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    // Both ports are free once the stop has resolved, and no socket of the emulator's is left.
    expect(await taken(udp!)).toBe(false);
    expect(await takenTcp(tcp!.port)).toBe(false);
    expect(await udpSocketsDownTo(ours)).toBe(ours);
  });

  it('a flood of transport requests closes the socket (1008): one transport of a direction opens at a time, and what opened meanwhile is closed', async () => {
    floodByCount();
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Flood' })).id;
    const ada = await page(m, 'Ada');
    const pc = await endpoint();
    const ours = udpSockets();
    // Every endpoint the emulator opens, and how many were opening at once.
    const open = WebRtcTransport.open.bind(WebRtcTransport);
    const opening: Promise<unknown>[] = [];
    let now = 0;
    let most = 0;
    vi.spyOn(WebRtcTransport, 'open').mockImplementation(async (...args) => {
      most = Math.max(most, ++now);
      const opened = open(...args);
      opening.push(opened.catch(() => undefined));
      try {
        return await opened;
      } finally {
        now--;
      }
    });
    const request = encodeEnvelope({
      event: MEDIA.createWebRTCTransport,
      id: 'flood',
      payload: encode('media.CreateTransportRequest', {
        consuming: false,
        description: { type: 'offer', sdp: pc.localDescription!.sdp, target: 0 },
        producers: [],
      }),
    });
    for (let i = 0; i < 300; i++) ada.sendRaw(request);
    expect((await ada.closed).code).toBe(1008);
    // Those waiting in line when the page was dropped never open; the one opening is closed once open.
    await Promise.all(opening);
    expect(opening.length).toBeGreaterThan(0);
    expect(most).toBe(1);
    expect(await counts()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    expect(await udpSocketsDownTo(ours)).toBe(ours);
  });

  it('a flood of consume requests for one track makes one consumer at most, and the socket closed for it frees it', async () => {
    floodByCount();
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Flood' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const adaCam = await produce(ada, await transport(ada, false), 'video');
    const bobRecv = await transport(bob, true);
    const error = vi.spyOn(emu.deps.logger, 'error');
    const consume = (id: string) =>
      encodeEnvelope({
        event: MEDIA.consume,
        id,
        payload: encode('media.edge.ConsumePeersRequest', {
          requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }],
          consuming_transport_id: bobRecv.id,
        }),
      });
    // Ten at once, within the limit: one consumer, one answer with an offer.
    const answers = Array.from({ length: 10 }, (_, i) => bob.next((f) => f.id === `c${i}`));
    for (let i = 0; i < 10; i++) bob.sendRaw(consume(`c${i}`));
    const bodies = (await Promise.all(answers)).map((f) => decode('media.edge.ConsumePeerResponse', f.payload) as { description?: unknown });
    expect(bodies.filter((b) => b.description !== undefined)).toHaveLength(1);
    expect(await counts()).toEqual({ transports: 2, producers: 1, consumers: 1 });
    // Past the limit: closed, and nothing of Bob's is left, nor half-made.
    for (let i = 0; i < 300; i++) bob.sendRaw(consume(`f${i}`));
    expect((await bob.closed).code).toBe(1008);
    expect(await eventually(counts, sameCounts({ transports: 1, producers: 1, consumers: 0 }))).toEqual({ transports: 1, producers: 1, consumers: 0 });
    expect(error).not.toHaveBeenCalled();
  });
});

describe('bots that publish the sample clip (control API)', () => {
  it('a join with media publishes the clip; the media route turns camera and microphone on and off; the leave ends them', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bots' })).id;
    const bot = await addPerson(emu, m, 'Bot');
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { video: true } })).status).toBe(200);
    expect((await counts()).producers).toBe(1);
    // A microphone it never had, turned off: nothing is published.
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { audio: false })).toEqual({ status: 200, body: { audio: false, video: true } });
    expect((await counts()).producers).toBe(1);
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { audio: true })).toEqual({ status: 200, body: { audio: true, video: true } });
    expect((await counts()).producers).toBe(2);
    // Off is a pause: the tracks stay, nothing flows.
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { video: false })).toEqual({ status: 200, body: { audio: true, video: false } });
    expect((await counts()).producers).toBe(2);
    expect((await post(`/meetings/${m}/participants/${bot.id}/leave`)).status).toBe(200);
    expect((await counts()).producers).toBe(0);
  });

  it('the media route answers 409 for a participant of the meeting not in it, 404 for one the meeting does not have, and changes nothing', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Bots' })).id;
    const bot = await addPerson(emu, m, 'Bot');
    const refused = await post(`/meetings/${m}/participants/${bot.id}/media`, { video: true });
    expect(refused).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: `Participant ${bot.id} is not in meeting ${m}; join them first` } },
    });
    // Another meeting's participant, joined there, and an id nobody has.
    const other = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Elsewhere' })).id;
    const stranger = await addPerson(emu, other, 'Stranger');
    expect((await post(`/meetings/${other}/participants/${stranger.id}/join`)).status).toBe(200);
    for (const id of [stranger.id, '00000000-0000-4000-8000-00000000dead']) {
      const missing = await post(`/meetings/${m}/participants/${id}/media`, { video: true });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await counts()).producers).toBe(0);
  });

  it('with media off, a join without media still works', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlane: 'inline', media: 'off' });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Off' })).id;
    const bot = await addPerson(emu, m, 'Bot');
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { audio: false } })).status).toBe(200);
  });
});

describe("the media plane's own process (--media-plane process, the default)", () => {
  /** The health answer's media plane: where it runs and its process, if one runs. */
  async function plane(): Promise<{ plane: string; plane_pid: number | null }> {
    const { media } = (await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { plane: string; plane_pid: number | null } };
    return { plane: media.plane, plane_pid: media.plane_pid };
  }

  /** Whether a process has exited, once it has (or the wait ran out). */
  const exited = async (pid: number): Promise<boolean> =>
    !(await eventually(
      async () => processExists(pid),
      (up) => !up,
    ));

  it('starts with the first transport, carries publish and receive, and with no idle time ends once the room holds nothing; the emulator opens no UDP socket of its own', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlaneIdleMs: 0 });
    expect(await plane()).toEqual({ plane: 'process', plane_pid: null });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Plane' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const endpoints = [await endpoint(), await endpoint()];
    const ours = udpSockets();
    const adaSend = await transport(ada, false, undefined, endpoints[0]);
    const { plane_pid: pid } = await plane();
    expect(pid).toEqual(expect.any(Number));
    expect(processExists(pid!)).toBe(true);
    // The plane's refusal reaches the page as the SDK's error, with its words.
    const noSuchSection = { ...(await produceRequest(adaSend, 'video')), app_data: JSON.stringify({ mid: '99' }), producing_transport_id: '' };
    await expect(ada.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', noSuchSection, null)).rejects.toThrow(
      'The offer has no video section with mid 99',
    );
    const adaCam = await produce(ada, adaSend, 'video');
    const bobRecv = await transport(bob, true, undefined, endpoints[1]);
    const consumed = (await bob.request(
      MEDIA.consume,
      'media.edge.ConsumePeersRequest',
      { requests: [{ producing_peer_id: ada.peerId, producer_id: adaCam }], consuming_transport_id: bobRecv.id },
      'media.edge.ConsumePeerResponse',
    )) as {
      description?: { type: string; sdp: string };
      consumer_ids_map: { map: Record<string, { consumer_id: string; producer_track: { stream_id: string } }> };
    };
    // The plane's offer adds a section for Ada's camera, named by the mid the answer gives.
    const mid = consumed.consumer_ids_map.map[adaCam]!.producer_track.stream_id;
    expect(consumed.description?.type).toBe('offer');
    expect(consumed.description?.sdp).toContain(`a=mid:${mid}`);
    expect(await counts()).toEqual({ transports: 2, producers: 1, consumers: 1 });
    expect((await plane()).plane_pid).toBe(pid);
    // Every UDP socket in this process is one of the test's own pages: the emulator's endpoints are in the plane's process.
    expect(udpSockets()).toBe(ours);

    await Promise.all([ada.close(), bob.close()]);
    expect(await eventually(counts, sameCounts({ transports: 0, producers: 0, consumers: 0 }))).toEqual({ transports: 0, producers: 0, consumers: 0 });
    expect(await eventually(plane, (p) => p.plane_pid === null)).toEqual({ plane: 'process', plane_pid: null });
    expect(await exited(pid!)).toBe(true);
  });

  it("a plane process that dies fails the transports it held and ends the bots' clips (the others are told the tracks ended); the next transport or bot track starts another; the stop ends it", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual' });
    const error = vi.spyOn(emu.deps.logger, 'error');
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Plane' })).id;
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    await bob.completeJoin();
    const adaCam = await produce(ada, await transport(ada, false), 'video');
    const bot = await addPerson(emu, m, 'Bot');
    const botCam = bob.push(
      MEDIA.peerProducerCreateBroadcast,
      'media.edge.PeerProducerCreateBroadcastResponse',
      (b) => (b as { participant_id: string }).participant_id === bot.id,
    );
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { video: true } })).status).toBe(200);
    expect(await counts()).toEqual({ transports: 1, producers: 2, consumers: 0 });
    // The bot's camera, as the pages are told of it: the clip's VP8, on no transport of a page.
    expect(await botCam).toMatchObject({
      participant_id: bot.id,
      producer_state: {
        kind: 1,
        pause: false,
        screen_share: false,
        app_data: JSON.stringify({ screenShare: false, e2ee: false }),
        producing_transport_id: '',
        mime_type: 'video/VP8',
      },
    });
    const { plane_pid: pid } = await plane();
    const told = bob.push(
      MEDIA.peerProducerCloseBroadcast,
      'media.edge.PeerProducerCloseBroadcastResponse',
      (b) => (b as { producer_state: { producer_id: string } }).producer_state.producer_id === adaCam,
    );
    const botTold = bob.push(
      MEDIA.peerProducerCloseBroadcast,
      'media.edge.PeerProducerCloseBroadcastResponse',
      (b) => (b as { participant_id: string }).participant_id === bot.id,
    );

    process.kill(pid!, 'SIGKILL');
    expect(await eventually(counts, sameCounts({ transports: 0, producers: 0, consumers: 0 }))).toEqual({ transports: 0, producers: 0, consumers: 0 });
    expect(await told).toMatchObject({ producer_state: { producer_id: adaCam } });
    // The bot's clip ended with the plane: its camera is off until turned on again, which publishes anew.
    expect(await botTold).toMatchObject({ participant_id: bot.id, producer_state: { kind: 1 } });
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ signal: 'SIGKILL' }), expect.stringContaining('media plane process ended'));
    expect((await plane()).plane_pid).toBeNull();

    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { video: true })).toEqual({ status: 200, body: { audio: false, video: true } });
    const { plane_pid: next } = await plane();
    expect(next).toEqual(expect.any(Number));
    expect(next).not.toBe(pid);
    await transport(ada, false);
    expect(await counts()).toEqual({ transports: 1, producers: 1, consumers: 0 });
    expect((await plane()).plane_pid).toBe(next);
    await emu.close();
    expect(processExists(next!)).toBe(false);
  });

  it('is started when a page joins the media room, ahead of its first transport, which it carries; a page that leaves before asking for one lets it end (no idle time)', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlaneIdleMs: 0 });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Plane' })).id;
    const ada = await page(m, 'Ada');
    // In the meeting's room, not yet in its media room: no plane.
    expect((await plane()).plane_pid).toBeNull();
    await ada.joinMedia(m, 'Ada');
    const { plane_pid: warmed } = await plane();
    expect(warmed).toEqual(expect.any(Number));
    expect(processExists(warmed!)).toBe(true);
    expect(await counts()).toEqual({ transports: 0, producers: 0, consumers: 0 });
    await produce(ada, await transport(ada, false), 'video');
    expect(await counts()).toEqual({ transports: 1, producers: 1, consumers: 0 });
    expect((await plane()).plane_pid).toBe(warmed);
    await ada.close();
    expect(await eventually(plane, (p) => p.plane_pid === null)).toEqual({ plane: 'process', plane_pid: null });
    expect(await exited(warmed!)).toBe(true);

    const bob = await page(m, 'Bob');
    await bob.joinMedia(m, 'Bob');
    const { plane_pid: pid } = await plane();
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(warmed);
    await bob.close();
    expect(await eventually(plane, (p) => p.plane_pid === null)).toEqual({ plane: 'process', plane_pid: null });
    expect(await exited(pid!)).toBe(true);
  });

  it("a bot's clip runs in the plane's process too, which ends with the bot's leave (no idle time)", async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlaneIdleMs: 0 });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Plane' })).id;
    const bot = await addPerson(emu, m, 'Bot');
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { audio: true, video: true } })).status).toBe(200);
    const { plane_pid: pid } = await plane();
    expect(processExists(pid!)).toBe(true);
    expect(await counts()).toEqual({ transports: 0, producers: 2, consumers: 0 });
    // Off is a pause: the process stays, with the tracks.
    expect(await post(`/meetings/${m}/participants/${bot.id}/media`, { audio: false, video: false })).toEqual({
      status: 200,
      body: { audio: false, video: false },
    });
    expect((await plane()).plane_pid).toBe(pid);
    expect((await post(`/meetings/${m}/participants/${bot.id}/leave`)).status).toBe(200);
    expect(await eventually(plane, (p) => p.plane_pid === null)).toEqual({ plane: 'process', plane_pid: null });
    expect(await exited(pid!)).toBe(true);
  });

  it('with an idle time (--media-plane-idle-ms), a plane that holds nothing stays for it: the next page uses it, a reset ends it at once', async () => {
    emu = await startEmulator({ seed: 'media room', clock: 'manual', mediaPlaneIdleMs: 600_000 });
    const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Plane' })).id;
    const ada = await page(m, 'Ada');
    await ada.joinMedia(m, 'Ada');
    await produce(ada, await transport(ada, false), 'video');
    const { plane_pid: pid } = await plane();
    expect(pid).toEqual(expect.any(Number));
    await ada.close();
    expect(await eventually(counts, sameCounts({ transports: 0, producers: 0, consumers: 0 }))).toEqual({ transports: 0, producers: 0, consumers: 0 });
    expect(await plane()).toEqual({ plane: 'process', plane_pid: pid });
    expect(processExists(pid!)).toBe(true);

    // The next page, its warming and its transport, and a bot's clip: all in the same process.
    const bob = await page(m, 'Bob');
    await bob.joinMedia(m, 'Bob');
    expect((await plane()).plane_pid).toBe(pid);
    await produce(bob, await transport(bob, false), 'video');
    const bot = await addPerson(emu, m, 'Bot');
    expect((await post(`/meetings/${m}/participants/${bot.id}/join`, { media: { video: true } })).status).toBe(200);
    expect(await counts()).toEqual({ transports: 1, producers: 2, consumers: 0 });
    expect((await plane()).plane_pid).toBe(pid);
    await bob.close();
    expect((await post(`/meetings/${m}/participants/${bot.id}/leave`)).status).toBe(200);
    expect(await eventually(counts, sameCounts({ transports: 0, producers: 0, consumers: 0 }))).toEqual({ transports: 0, producers: 0, consumers: 0 });
    expect((await plane()).plane_pid).toBe(pid);

    expect((await fetch(`${emu.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect(await eventually(plane, (p) => p.plane_pid === null)).toEqual({ plane: 'process', plane_pid: null });
    expect(await exited(pid!)).toBe(true);
  });
});
