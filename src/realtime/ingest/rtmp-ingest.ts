// The RTMP ingest: where an encoder (OBS, ffmpeg, a hardware encoder) pushes a livestream, as
// production's ingest_server says (`rtmps://<host>:<port>/app/` and the stream key), on the TLS
// listener's certificate, and over plain RTMP for encoders that cannot trust it. The RTMP protocol
// itself (the handshake, simple or with its digest; chunk streams; the AMF commands; FLV tags) is
// node-media-server's protocol layer; the emulator owns the sockets, the limits and the key check.
//
// A push is checked when the encoder asks to publish, before it is told it may: the app must be
// `app`, the key one of a livestream that is neither stopped nor disabled and has no other encoder
// (production takes one encoder per stream key). A refused push hears NetStream.Publish.BadName with
// the reason and is closed; nothing starts. An accepted one hears NetStream.Publish.Start, and its
// audio and video go, as FLV, to the livestream's packager in the media plane (room-livestreams.ts).
//
// Bad input never reaches further than its own connection: a connection that does not publish
// within the publish deadline from its TCP accept (a TLS or RTMP handshake left half-way, garbage, a
// stall), that sends more than it may before publishing, a message or chunk stream count past the
// limits, or bytes the protocol layer cannot read is dropped; a publishing encoder silent too long is
// dropped (its livestream goes IDLE). At most so many TCP connections are open, and fewer not yet
// publishing, an RTMPS connection counted from its accept, while its TLS handshake runs (INGEST_LIMITS).
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer, type TLSSocket } from 'node:tls';
import Rtmp, { type RtmpAvPacket, type RtmpStreamRequest } from 'node-media-server/src/protocol/rtmp.js';
import nmsLogger from 'node-media-server/src/core/logger.js';
import type { Logger } from '../../logger.js';
import type { Livestream } from '../../domain/models.js';
import type { IngestConnection, IngestSink } from '../media/room-livestreams.js';
import type { TlsIdentity } from '../tls.js';

/** The application name of production's ingest URLs (`…/app/<stream key>`). */
export const INGEST_APP = 'app';
/** The ingest's bounds on its connections. */
export interface IngestLimits {
  /** A connection that has not published within this long (real ms) from its TCP accept is dropped (an RTMPS one's TLS handshake included). */
  publishDeadlineMs: number;
  /** A publishing encoder that sends nothing for this long (real ms) is dropped. */
  stallMs: number;
  /** TCP connections open at once, and of those, not yet publishing (an RTMPS one in its TLS handshake included). */
  maxConnections: number;
  maxWaiting: number;
}

export const INGEST_LIMITS: IngestLimits = Object.freeze({ publishDeadlineMs: 10_000, stallMs: 10_000, maxConnections: 64, maxWaiting: 16 });
/** What a connection may send before it publishes (the handshake and a few commands take under 5 KB). */
const MAX_BYTES_BEFORE_PUBLISH = 64 * 1024;
/** The largest RTMP message taken (a key frame of a high bitrate stream stays far below). */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** Chunk streams one connection may use (an encoder uses five or six). */
const MAX_CHUNK_STREAMS = 32;
/** FLV held for a push while its packager starts, at most. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

// The FLV header names no stream: the packager finds the encoder's streams as they come, where a
// header naming sound would keep it waiting for sound a video-only encoder never sends.
const FLV_HEADER = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x00, 0, 0, 0, 9, 0, 0, 0, 0]);
const FLV_AUDIO = 8;
const FLV_VIDEO = 9;

export interface RtmpIngestDeps {
  logger: Logger;
  /** The livestream a stream key names, in any organization. */
  byStreamKey(key: string): Livestream | undefined;
  /** Why no push is taken at all (the livestreams are simulated), or undefined. */
  refusal(): string | undefined;
  /** Where an accepted push goes. */
  ingest(livestream: Livestream, connection: IngestConnection): Promise<IngestSink | undefined>;
  tls: TlsIdentity;
}

export interface IngestListening {
  rtmp: number | null;
  rtmps: number | null;
}

// node-media-server's protocol layer logs through its own console logger: quiet here, the emulator logs.
nmsLogger.log = () => undefined;

export class RtmpIngest {
  private readonly connections = new Set<RtmpConnection>();
  /** RTMPS connections whose TLS handshake is under way, by their peer's address and port. */
  private readonly handshaking = new Map<string, { socket: Socket; deadline: PublishDeadline }>();
  /** Livestream id → the connection publishing to it. */
  private readonly publishers = new Map<string, RtmpConnection>();
  private plain: NetServer | undefined;
  private secure: { listener: NetServer; server: TlsServer } | undefined;
  private closed = false;

  readonly limits: IngestLimits;

  constructor(
    private readonly deps: RtmpIngestDeps,
    /** Tighter bounds for the tests of the bounds themselves. */
    limits: Partial<IngestLimits> = {},
  ) {
    this.limits = { ...INGEST_LIMITS, ...limits };
  }

  /** Whether the ingest is shutting down (an encoder's end then hands nothing over). */
  get closing(): boolean {
    return this.closed;
  }

  /** Open connections (RTMPS ones in their TLS handshake too), and those publishing. */
  counts(): { connections: number; publishing: number } {
    return { connections: this.connections.size + this.handshaking.size, publishing: this.publishers.size };
  }

  /** Listens on the ports asked for (null: that one stays off); answers the ports listened on. */
  async listen(host: string, rtmpPort: number | null, rtmpsPort: number | null): Promise<IngestListening> {
    let rtmp: number | null = null;
    let rtmps: number | null = null;
    if (rtmpPort !== null) {
      this.plain = createNetServer((socket) => this.accept(socket));
      rtmp = await listen(this.plain, host, rtmpPort);
    }
    if (rtmpsPort !== null) {
      // Node's own bound on a TLS handshake (120 s) would let a flood of half handshakes stay: the publish deadline bounds it.
      const server = createTlsServer({ handshakeTimeout: this.limits.publishDeadlineMs }, (socket) => this.secured(socket));
      server.on('tlsClientError', (_err, socket) => socket.destroy());
      let ready: Promise<void> | undefined;
      const listener = createNetServer({ pauseOnConnect: true }, (socket) => {
        if (!this.admits()) return void socket.destroy();
        // Counted from here, and held to the publish deadline from here, while the TLS handshake runs.
        const key = peerOf(socket);
        const deadline = new PublishDeadline(this.limits.publishDeadlineMs, () => socket.destroy());
        this.handshaking.set(key, { socket, deadline });
        socket.once('close', () => {
          if (this.handshaking.get(key)?.socket !== socket) return;
          this.handshaking.delete(key);
          deadline.clear();
        });
        socket.on('error', () => socket.destroy());
        ready ??= this.deps.tls.credentials().then((credentials) => server.setSecureContext(credentials));
        ready.then(
          () => (!listener.listening ? socket.destroy() : socket.destroyed ? undefined : server.emit('connection', socket)),
          (err: unknown) => {
            ready = undefined;
            this.deps.logger.error({ err }, 'RTMPS: cannot make the TLS certificate');
            socket.destroy();
          },
        );
      });
      this.secure = { listener, server };
      rtmps = await listen(listener, host, rtmpsPort);
    }
    return { rtmp, rtmps };
  }

  /** Stops listening and drops every connection (their livestreams go IDLE). */
  async close(): Promise<void> {
    this.closed = true;
    for (const c of [...this.connections]) c.drop('The emulator is shutting down');
    for (const { socket } of [...this.handshaking.values()]) socket.destroy();
    await Promise.all([this.plain && closeServer(this.plain), this.secure && closeServer(this.secure.listener)]);
  }

  /** Whether one more TCP connection may open: the open ones, and those not publishing yet, under their bounds. */
  private admits(): boolean {
    const waiting = [...this.connections].filter((c) => !c.publishing).length + this.handshaking.size;
    return !this.closed && this.connections.size + this.handshaking.size < this.limits.maxConnections && waiting < this.limits.maxWaiting;
  }

  /** A plain RTMP connection. */
  private accept(socket: Socket): void {
    if (!this.admits()) return void socket.destroy();
    this.connections.add(new RtmpConnection(socket, this, this.deps.logger, this.limits, new PublishDeadline(this.limits.publishDeadlineMs)));
  }

  /** An RTMPS connection through its TLS handshake: admitted at its TCP accept, its deadline running since. */
  private secured(socket: TLSSocket): void {
    const pending = this.handshaking.get(peerOf(socket));
    this.handshaking.delete(peerOf(socket));
    if (this.closed || !pending) return void socket.destroy();
    this.connections.add(new RtmpConnection(socket, this, this.deps.logger, this.limits, pending.deadline));
  }

  /** Whether a publish to this key may start, or the reason it may not. */
  check(app: string, key: string): { livestream: Livestream } | { refused: string } {
    const off = this.deps.refusal();
    if (off) return { refused: off };
    if (app !== INGEST_APP) return { refused: `The application is "${INGEST_APP}": push to rtmp(s)://<host>:<port>/${INGEST_APP}/<stream key>` };
    const l = this.deps.byStreamKey(key);
    if (!l) return { refused: 'No livestream has this stream key' };
    if (l.disabled) return { refused: `Livestream ${l.id} is disabled` };
    if (l.state === 'STOPPED' || l.state === 'ERRORED') return { refused: `Livestream ${l.id} is ${l.state === 'STOPPED' ? 'stopped' : 'ERRORED'}` };
    if (this.publishers.has(l.id)) return { refused: `Livestream ${l.id} already has an encoder` };
    return { livestream: l };
  }

  published(l: Livestream, c: RtmpConnection): Promise<IngestSink | undefined> {
    this.publishers.set(l.id, c);
    return this.deps.ingest(l, c);
  }

  gone(c: RtmpConnection, livestreamId: string | undefined): void {
    this.connections.delete(c);
    if (livestreamId !== undefined && this.publishers.get(livestreamId) === c) this.publishers.delete(livestreamId);
  }
}

/** One encoder's connection. */
class RtmpConnection implements IngestConnection {
  private readonly rtmp = new Rtmp();
  /** What the protocol layer answers while it reads: sent once the read is done (a refused publish's start is taken back first). */
  private output: Buffer[] = [];
  private publishStart: number | undefined;
  private request: RtmpStreamRequest | undefined;
  private livestream: Livestream | undefined;
  private sink: IngestSink | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private received = 0;
  private headerSent = false;
  private ended = false;
  publishing = false;

  constructor(
    private readonly socket: Socket,
    private readonly ingest: RtmpIngest,
    private readonly logger: Logger,
    limits: IngestLimits,
    /** Running since the TCP accept. */
    private readonly deadline: PublishDeadline,
  ) {
    const rtmp = this.rtmp;
    const alloc = rtmp.packetAlloc.bind(rtmp);
    rtmp.packetAlloc = () => {
      if (rtmp.parserPacket.header.length > MAX_MESSAGE_BYTES) throw new Error(`a message of ${rtmp.parserPacket.header.length} bytes`);
      if (rtmp.inPackets.size > MAX_CHUNK_STREAMS) throw new Error(`more than ${MAX_CHUNK_STREAMS} chunk streams`);
      alloc();
    };
    rtmp.onOutputCallback = (buffer) => void this.output.push(buffer);
    rtmp.onConnectCallback = (req) => {
      this.request = req;
      // The answer to a publish (or a play) was just written: it is sent only if the publish is taken.
      this.publishStart = this.output.length - 1;
    };
    rtmp.onPushCallback = () => this.onPublish();
    rtmp.onPlayCallback = () => this.refuse('This ingest takes pushes only; the livestream plays at its playback_url (HLS)');
    rtmp.onPacketCallback = (packet) => this.onPacket(packet);
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('error', () => this.drop());
    socket.on('close', () => this.drop());
    socket.setTimeout(limits.stallMs, () => this.drop(this.publishing ? `The encoder sent nothing for ${limits.stallMs} ms` : undefined));
    deadline.onExpiry(() => {
      if (!this.publishing) this.drop();
    });
  }

  private onData(data: Buffer): void {
    if (this.ended) return;
    this.received += data.length;
    if (!this.publishing && this.received > MAX_BYTES_BEFORE_PUBLISH) return this.drop();
    let tags: Buffer[] = [];
    this.tags = tags;
    try {
      const error = this.rtmp.parserData(data);
      if (error) throw new Error(error);
      if (!(this.rtmp.inChunkSize >= 1 && this.rtmp.inChunkSize <= 0x7fffffff)) throw new Error(`a chunk size of ${this.rtmp.inChunkSize}`);
    } catch (err) {
      if (this.publishing || this.request) this.logger.info({ reason: (err as Error).message }, 'RTMP ingest: a connection sent what it may not; dropped');
      return this.drop();
    } finally {
      tags = this.tags;
      this.tags = undefined;
    }
    this.flushOutput();
    if (tags.length > 0) this.deliver(Buffer.concat(tags));
  }

  /** FLV tags made while a read runs. */
  private tags: Buffer[] | undefined;

  private onPacket(packet: RtmpAvPacket): void {
    if (!this.publishing || (packet.codec_type !== FLV_AUDIO && packet.codec_type !== FLV_VIDEO)) return;
    const size = packet.size;
    const tag = Buffer.alloc(11 + size + 4);
    tag[0] = packet.codec_type;
    tag.writeUIntBE(size, 1, 3);
    tag.writeUIntBE(packet.dts & 0xffffff, 4, 3);
    tag[7] = (packet.dts >>> 24) & 0xff;
    // The protocol layer reuses a message's buffer: its bytes are copied now.
    packet.data.copy(tag, 11, 0, size);
    tag.writeUInt32BE(11 + size, 11 + size);
    if (!this.headerSent) {
      this.headerSent = true;
      this.tags?.push(FLV_HEADER);
    }
    this.tags?.push(tag);
  }

  private onPublish(): void {
    const req = this.request;
    if (!req) return this.refuse('A publish without a stream name');
    const verdict = this.ingest.check(req.app, req.name);
    if ('refused' in verdict) return this.refuse(verdict.refused);
    this.publishing = true;
    this.livestream = verdict.livestream;
    this.deadline.clear();
    this.logger.info({ livestream: verdict.livestream.id }, 'RTMP ingest: an encoder publishes');
    this.ingest.published(verdict.livestream, this).then(
      (sink) => {
        if (this.ended) return sink?.close(this.ingest.closing);
        if (!sink) return this.drop('The livestream takes no encoder now');
        this.sink = sink;
        for (const chunk of this.pending) sink.write(chunk);
        this.pending = [];
        this.pendingBytes = 0;
      },
      (err: Error) => this.drop(`The livestream could not take the encoder: ${err.message}`),
    );
  }

  private deliver(flv: Buffer): void {
    if (this.sink) return this.sink.write(flv);
    this.pending.push(flv);
    this.pendingBytes += flv.length;
    if (this.pendingBytes > MAX_PENDING_BYTES) this.drop('The livestream did not take the encoder in time');
  }

  /** A refused publish or play: its start taken back, NetStream.Publish.BadName with the reason, and the end. */
  private refuse(reason: string): void {
    if (this.publishStart !== undefined) this.output.splice(this.publishStart);
    this.rtmp.sendStatusMessage(this.rtmp.streamId, 'error', 'NetStream.Publish.BadName', reason);
    this.logger.info({ app: this.request?.app, reason }, 'RTMP ingest: a push refused');
    this.flushOutput();
    this.ended = true;
    this.socket.end();
    // An encoder that does not close its side is let go all the same.
    setTimeout(() => this.socket.destroy(), 1_000).unref();
    this.finish();
  }

  private flushOutput(): void {
    if (this.output.length === 0 || this.socket.destroyed) return;
    const out = Buffer.concat(this.output);
    this.output = [];
    this.publishStart = undefined;
    this.socket.write(out);
  }

  /** Ends the connection (the livestream was stopped, disabled, reset), or it ended by itself. */
  end(reason: string): void {
    this.drop(reason);
  }

  drop(reason?: string): void {
    if (reason && this.livestream) this.logger.info({ livestream: this.livestream.id, reason }, 'RTMP ingest: an encoder dropped');
    this.ended = true;
    this.socket.destroy();
    this.finish();
  }

  private finish(): void {
    this.deadline.clear();
    this.pending = [];
    this.ingest.gone(this, this.livestream?.id);
    const sink = this.sink;
    this.sink = undefined;
    sink?.close(this.ingest.closing);
  }
}

/** A connection's deadline to publish, from its TCP accept on: what it does when it passes can change (an RTMPS connection's is taken over once its TLS handshake is done). */
class PublishDeadline {
  private readonly timer: NodeJS.Timeout;

  constructor(
    ms: number,
    private expire: () => void = () => undefined,
  ) {
    this.timer = setTimeout(() => this.expire(), ms);
    this.timer.unref();
  }

  onExpiry(expire: () => void): void {
    this.expire = expire;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** A TCP connection's peer (its address and port), the same before and after TLS wraps it. */
function peerOf(socket: Socket): string {
  return `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;
}

function listen(server: NetServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
