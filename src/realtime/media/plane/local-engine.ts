// The media plane's engine (the door is ../engine.ts): the endpoints and tracks in maps by the ids
// the media room gave them. It runs in the emulator's process (--media-plane inline) or in the
// plane's own (plane-process.ts).
import type { RTCRtpTransceiver } from 'werift';
import { TransportClosed, Unserved } from '../../unserved.js';
import type { ConsumerOrder, EngineHolds, MediaEngine } from '../engine.js';
import type {
  Direction,
  LinkConditions,
  LivestreamSpec,
  PlaneLogger,
  ProducerInfo,
  RecorderClock,
  RecorderEvent,
  RecorderResult,
  RecorderSpec,
  RecorderStatus,
  RoomScene,
} from '../media-types.js';
import type { MediaListening, MediaNetwork } from '../media-network.js';
import { BotClip, clipOnce } from './bot-clip.js';
import { Consumer } from './consumer.js';
import { IcePorts } from './ice-ports.js';
import { Producer } from './producer.js';
import { loadWerift, WebRtcTransport } from './transport.js';
import { Recorder } from './recorder/recorder.js';
import { PlaneLivestreams } from './livestream/plane-livestreams.js';

/** Where the plane logs when nobody gives it a logger (the tests of its parts): nowhere. */
const QUIET: PlaneLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Where the plane listens when nobody says (the tests of its parts): the loopback, one port the system picks. */
const LOOPBACK: MediaNetwork = { host: '127.0.0.1', ports: 0, announce: undefined };

/** The engine in this process: the endpoints and tracks in maps by id. */
export class LocalMediaEngine implements MediaEngine {
  private readonly transports = new Map<string, WebRtcTransport>();
  private readonly producers = new Map<string, Producer>();
  private readonly consumers = new Map<string, Consumer>();
  private readonly bots = new Map<string, BotClip>();
  private readonly clip = clipOnce();
  private readonly failedListeners: Array<(id: string) => void> = [];
  private readonly recoveredListeners: Array<(id: string) => void> = [];
  /** The network of each bot's clip, by the bot's key (set before or after it publishes). */
  private readonly botLinks = new Map<string, LinkConditions>();
  private readonly recorderListeners: Array<(event: RecorderEvent) => void> = [];
  private readonly recorder: Recorder;
  private readonly livestreams: PlaneLivestreams;
  /** The sockets every transport shares: opened with the first transport, closed with the last. */
  private ports: Promise<IcePorts> | undefined;
  private portUsers = 0;
  private current: MediaListening | null = null;
  /** Settles once the sockets last let go are closed. */
  private portsClosed: Promise<void> = Promise.resolve();
  readonly pid = null;

  constructor(
    private readonly logger: PlaneLogger = QUIET,
    /** Where the transports listen (--host, --media-port, --media-announce). */
    private readonly network: MediaNetwork = LOOPBACK,
    /** Told each time the sockets open (where they listen) and close (null). */
    private readonly onListening: (listening: MediaListening | null) => void = () => undefined,
  ) {
    this.recorder = new Recorder({
      producer: (id) => this.producers.get(id),
      logger,
      events: (event) => this.recorderListeners.forEach((l) => l(event)),
    });
    this.livestreams = new PlaneLivestreams({ recorder: this.recorder, logger, events: (event) => this.recorderListeners.forEach((l) => l(event)) });
  }

  get listening(): MediaListening | null {
    return this.current;
  }

  /** werift loaded and compiled before the first transport needs it (in the plane's process, what its start is mostly made of). */
  async warm(): Promise<void> {
    await loadWerift().catch(() => undefined);
  }

  cool(): void {}

  async openTransport(id: string, direction: Direction, offer: string): Promise<string> {
    const ports = await this.acquirePorts();
    let opened;
    try {
      opened = await WebRtcTransport.open(
        id,
        direction,
        offer,
        ports,
        () => this.failedListeners.forEach((l) => l(id)),
        () => this.recoveredListeners.forEach((l) => l(id)),
        this.network.failedGraceMs,
      );
    } catch (err) {
      this.releasePorts();
      if (err instanceof TransportClosed) throw err;
      throw new Unserved(`The SDP offer could not be answered (${(err as Error).message})`);
    }
    this.transports.set(id, opened.transport);
    return opened.answer;
  }

  answer(transportId: string, offer: string): Promise<string> {
    return this.transport(transportId).answer(offer);
  }

  accept(transportId: string, answer: string): Promise<void> {
    return this.transport(transportId).accept(answer);
  }

  closeTransport(id: string): void {
    const t = this.transports.get(id);
    if (!t) return;
    this.transports.delete(id);
    for (const c of [...this.consumers.values()]) if (c.transportId === id) this.closeConsumer(c.id);
    for (const p of [...this.producers.values()]) if (p.info.transportId === id) this.closeProducer(p.id);
    t.close();
    this.releasePorts();
  }

  async produce(info: ProducerInfo, paused: boolean, offer: string, mid: string): Promise<string> {
    const transport = this.transport(info.transportId);
    const answer = await transport.answer(offer);
    const transceiver = transport.transceiverOf(mid);
    if (!transceiver || transceiver.kind !== info.kind) throw new Unserved(`The offer has no ${info.kind} section with mid ${mid}`);
    if (transport.isClosed) throw new TransportClosed();
    this.producers.set(info.id, webRtcProducer(info, paused, transceiver));
    return answer;
  }

  async botTrack(botId: string, info: ProducerInfo): Promise<void> {
    let bot = this.bots.get(botId);
    if (!bot) {
      this.bots.set(botId, (bot = new BotClip(this.clip, () => this.bots.delete(botId), botId)));
      bot.setLink(this.botLinks.get(botId) ?? null);
    }
    this.producers.set(info.id, await bot.track(info));
  }

  pauseProducer(id: string, paused: boolean): void {
    this.producers.get(id)?.setPaused(paused);
  }

  closeProducer(id: string): void {
    const p = this.producers.get(id);
    if (!p) return;
    this.producers.delete(id);
    // Its viewers' copies close with it.
    p.close();
  }

  async consume(transportId: string, orders: ConsumerOrder[]): Promise<{ offer: string; mids: string[] }> {
    const transport = this.transport(transportId);
    const added: Consumer[] = [];
    for (const order of orders) {
      const producer = this.producers.get(order.producerId);
      if (!producer || producer.isClosed) {
        for (const c of added) c.close();
        throw new Unserved(`Track ${order.producerId} is not published`);
      }
      added.push(this.addConsumer(transport, order, producer));
    }
    let offer: string;
    try {
      offer = await transport.offer();
      // Released while the offer was made (the transport closes first, but a finished offer stays finished).
      if (transport.isClosed) throw new TransportClosed();
    } catch (err) {
      for (const c of added) c.close();
      throw err;
    }
    for (const c of added) if (!c.isClosed) this.consumers.set(c.id, c);
    return { offer, mids: added.map((c) => c.mid) };
  }

  closeConsumer(id: string): void {
    this.consumers.get(id)?.close();
    this.consumers.delete(id);
  }

  preferLayer(consumerId: string, layer: string): void {
    this.consumers.get(consumerId)?.prefer(layer);
  }

  startRecorder(spec: RecorderSpec, scene: RoomScene, clock: RecorderClock): Promise<void> {
    return this.recorder.start(spec, scene, clock);
  }

  setScene(scene: RoomScene): void {
    this.recorder.setScene(scene);
  }

  setRecorderClock(id: string, clock: RecorderClock): void {
    this.recorder.setClock(id, clock);
  }

  stopRecorder(id: string, finalMs: number): Promise<RecorderResult> {
    return this.recorder.stop(id, finalMs);
  }

  cancelRecorder(id: string): void {
    this.recorder.cancel(id);
  }

  recorderStatus(id: string): Promise<RecorderStatus | null> {
    return Promise.resolve(this.recorder.status(id));
  }

  startLivestream(spec: LivestreamSpec, scene: RoomScene | null): Promise<void> {
    return this.livestreams.start(spec, scene);
  }

  feedLivestream(id: string, bytes: Uint8Array): void {
    this.livestreams.feed(id, bytes);
  }

  stopLivestream(id: string): Promise<void> {
    return this.livestreams.stop(id);
  }

  onRecorderEvent(listener: (event: RecorderEvent) => void): void {
    this.recorderListeners.push(listener);
  }

  onTransportFailed(listener: (transportId: string) => void): void {
    this.failedListeners.push(listener);
  }

  /** The plane in this process dies only with the emulator: nothing to tell. */
  onPlaneLost(): void {}

  shape(id: string, link: LinkConditions | null): void {
    const transport = this.transports.get(id);
    if (transport) return transport.shape(link);
    // A bot's key: kept for its clip, which may start later.
    if (link) this.botLinks.set(id, link);
    else this.botLinks.delete(id);
    this.bots.get(id)?.setLink(link);
  }

  onPathRecovered(listener: (transportId: string) => void): void {
    this.recoveredListeners.push(listener);
  }

  reset(): void {
    this.livestreams.reset();
    this.recorder.reset();
    for (const bot of [...this.bots.values()]) bot.stop();
    this.bots.clear();
    this.botLinks.clear();
    for (const id of [...this.transports.keys()]) this.closeTransport(id);
    for (const id of [...this.producers.keys()]) this.closeProducer(id);
    this.consumers.clear();
  }

  /** Closes everything; resolves once the sockets are closed. */
  close(): Promise<void> {
    this.reset();
    return this.portsClosed;
  }

  /** What it holds open now. */
  holds(): EngineHolds {
    // A viewer's copy closed with its track leaves the map at the next look.
    for (const [id, c] of this.consumers) if (c.isClosed) this.consumers.delete(id);
    return {
      transports: this.transports.size,
      producers: this.producers.size,
      consumers: this.consumers.size,
      recordings: this.recorder.holds,
      livestreams: this.livestreams.holds,
    };
  }

  /** The shared sockets, opened by the first transport that needs them; a failure to bind is the page's refusal, and told. */
  private async acquirePorts(): Promise<IcePorts> {
    this.portUsers++;
    if (!this.ports) {
      const { network, logger } = this;
      const opening = loadWerift().then((w) => IcePorts.open(w, network, (message, fields) => logger.warn(fields, message)));
      this.ports = opening;
      opening.then(
        (ports) => {
          this.current = ports.listening();
          this.onListening(this.current);
        },
        (err: NodeJS.ErrnoException) => {
          if (this.ports === opening) this.ports = undefined;
          logger.warn({ host: network.host, ports: network.ports, code: err.code ?? err.message }, 'media cannot listen');
        },
      );
    }
    try {
      return await this.ports;
    } catch (err) {
      this.portUsers--;
      const { host, ports } = this.network;
      const port = typeof ports === 'number' ? ports : `${ports.from}-${ports.to}`;
      throw new Unserved(`Media cannot listen on ${host} port ${port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }

  /** A transport let its sockets go: the last one closes them, and every port is free again. */
  private releasePorts(): void {
    if (--this.portUsers > 0) return;
    this.portUsers = 0;
    const ports = this.ports;
    this.ports = undefined;
    if (!ports) return;
    this.portsClosed = ports.then(
      (p) => {
        p.close();
        if (this.ports === undefined) {
          this.current = null;
          this.onListening(null);
        }
      },
      () => undefined,
    );
  }

  private transport(id: string): WebRtcTransport {
    const t = this.transports.get(id);
    if (!t) throw new TransportClosed();
    return t;
  }

  private addConsumer(transport: WebRtcTransport, order: ConsumerOrder, producer: Producer): Consumer {
    const w = transport.werift;
    const track = new w.MediaStreamTrack({ kind: producer.kind });
    const transceiver = transport.pc.addTransceiver(track, { direction: 'sendonly' });
    // The section offers the producer's codec only: the viewer decodes what the publisher sends.
    const codec = transport.pc.config.codecs[producer.kind]?.find((c) => c.mimeType.toLowerCase() === producer.info.mimeType.toLowerCase());
    if (codec) transceiver.codecs = [codec];
    return new Consumer(order.consumerId, producer, transport.id, transceiver, track, w, order.layer || 'f');
  }
}

/** A producer fed by a page's track on the emulator's endpoint: each simulcast layer is a track of its own. */
function webRtcProducer(info: ProducerInfo, paused: boolean, transceiver: RTCRtpTransceiver): Producer {
  const ssrcOf = new Map<string, number>();
  const offs: Array<() => void> = [];
  const producer = new Producer(info, paused, {
    requestKeyframe: (layer) => {
      const ssrc = ssrcOf.get(layer);
      if (ssrc !== undefined) void transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
    },
    close: () => {
      for (const off of offs) off();
    },
  });
  const attach = (track: import('werift').MediaStreamTrack) => {
    const layer = track.rid ?? '';
    if (track.ssrc !== undefined) ssrcOf.set(layer, track.ssrc);
    offs.push(
      track.onReceiveRtp.subscribe((packet) => {
        ssrcOf.set(layer, packet.header.ssrc);
        producer.deliver(packet, layer);
      }).unSubscribe,
    );
  };
  for (const track of transceiver.receiver.tracks) attach(track);
  offs.push(transceiver.onTrack.subscribe((track) => attach(track)).unSubscribe);
  return producer;
}
