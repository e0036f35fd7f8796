// The media plane's sockets: where every WebRTC transport's packets come in and go out. A small
// layer under werift's ICE agent, in the manner of mediasoup's WebRtcServer: one UDP socket and one
// TCP listener, bound to the emulator's own address, carry every transport of every room, and the
// ICE candidates name only the addresses a page can reach (media-network.ts). With a port range
// each transport gets a UDP socket of its own from the range instead (the TCP listener stays shared).
//
// werift opens sockets of its own for each transport, on every address of the machine. Here each
// transport's ICE agent (werift's Connection) gathers no sockets: its candidates are this layer's,
// and it is handed one "protocol" (werift's name for a socket it sends and receives on) per kind,
// UDP and TCP, that reads and writes through the shared sockets. werift answers the checks and
// runs DTLS and SRTP over them as it does over its own.
//
// What arrives is told apart without trusting the sender:
// - A STUN binding request names the transport by the ufrag its USERNAME begins with, and must carry
//   a MESSAGE-INTEGRITY made with that transport's password (checked here: werift's ICE-lite agent
//   checks none); only then is the sender's address (UDP) or connection (TCP) tied to the transport.
//   Two transports may draw the same 4-character ufrag: the password tells them apart.
// - Anything else (DTLS, SRTP) goes to the transport its sender's address or connection is tied to.
// - The rest (a sender no check has tied, a check no transport can verify) is dropped and counted;
//   the first drop is told at once, the next ones at most once a minute, with their number.
// So one page's packets reach its own transport only, whichever meeting the others are in.
//
// ICE over TCP (RFC 6544, passive candidates, frames of RFC 4571) is the fallback for a page whose
// network carries no UDP: its browser connects to the TCP port and runs the same checks, DTLS and
// SRTP inside the frames. An ICE restart (a new ufrag and password in the page's offer) keeps the
// transport's protocols: the new ufrag is indexed at the answer's gathering, the old ones stay
// valid until the transport closes (werift answers late checks on them too). A page that
// nominates another path (a TCP connection cut and made again, a new address) moves its
// transport's outgoing media there: werift's ICE-lite agent would keep its first nomination.
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import type { Address, Candidate, Connection, Message, Protocol } from 'werift';
import { realNow, realSleep } from '../../../core/clock.js';
import { bareAddress, candidateAddresses, portsOf, type MediaListening, type MediaNetwork } from '../media-network.js';
import type { TransportLink } from './link-shaper.js';
import type { Werift } from './transport.js';

/** A TCP connection must prove which transport it is for (a verified binding request) within this long (real ms). */
const IDENTIFY_MS = 10_000;
/** Bytes a TCP connection may hold unframed: one frame (RFC 4571: a 16-bit length) and its header. */
const MAX_UNFRAMED = 65_537;
/** Bytes queued on a TCP connection past which media is dropped rather than buffered (a page that stopped reading). */
const MAX_TCP_QUEUE = 1 << 20;
/** Drops are told at most this often (real ms). */
const DROP_NOTICE_GAP_MS = 60_000;
/** How long a fixed port taken by the plane before (a process on its way out) is tried again (real ms, every RETRY_MS). */
const BIND_WAIT_MS = 3_000;
const RETRY_MS = 50;

/** What this layer tells the plane's owner: drops of unknown senders, at most once a minute. */
export type Notice = (message: string, fields: Record<string, unknown>) => void;

/** What werift's ICE agent keeps that this layer drives (not in its types; werift is pinned to the version this was written for). */
interface AgentInternals {
  localUsername: string;
  localPassword: string;
  userHistory: Record<string, string>;
  generation: number;
  localCandidatesStart: boolean;
  localCandidatesEnd: boolean;
  protocols: Protocol[];
  /** The pair media goes out on, once the page has nominated one. */
  nominated?: { protocol: Protocol; remoteAddr: Address };
  resetNominatedPair(): void;
  gatherCandidates(): Promise<void>;
  ensureProtocol(protocol: Protocol): void;
  appendLocalCandidate(candidate: Candidate): void;
  setState(state: string): void;
}

const key = (host: string, port: number): string => `${host}|${port}`;

/**
 * One socket of a transport as werift's ICE agent sees it (its Protocol): what the agent sends goes
 * out through this layer's sockets; what this layer routes to the transport comes in through the
 * two events the agent subscribes to.
 */
class PortProtocol implements Protocol {
  readonly onRequestReceived;
  readonly onDataReceived;
  localCandidate?: Candidate;
  localIp?: string;

  constructor(
    w: Werift,
    readonly type: 'stun' | 'tcp',
    private readonly out: (data: Buffer, addr: Address) => void,
    /** werift closes every protocol of an agent with it: the transport's place here goes with the first. */
    private readonly closed: () => void,
  ) {
    this.onRequestReceived = new w.Event<[Message, Address, Buffer]>();
    this.onDataReceived = new w.Event<[Buffer]>();
  }

  connectionMade = (): Promise<void> => Promise.resolve();

  sendStun = (message: Message, addr: Address): Promise<void> => {
    this.out(message.bytes, addr);
    return Promise.resolve();
  };

  sendData = (data: Buffer, addr: Address): Promise<void> => {
    this.out(data, addr);
    return Promise.resolve();
  };

  /** An ICE-lite agent only answers checks: it never sends a request of its own. */
  request = (): Promise<[Message, Address]> => Promise.reject(new Error('an ICE-lite endpoint sends no STUN requests'));

  close = (): Promise<void> => {
    this.closed();
    this.onRequestReceived.complete();
    this.onDataReceived.complete();
    return Promise.resolve();
  };
}

/** One transport's ICE agent on this layer: its ufrags, the UDP addresses and TCP connections tied to it. */
class Endpoint {
  readonly udp: PortProtocol;
  readonly tcp: PortProtocol | undefined;
  readonly ufrags = new Set<string>();
  readonly addresses = new Set<string>();
  readonly connections = new Map<string, net.Socket>();
  private closed = false;

  constructor(
    readonly ports: IcePorts,
    readonly agent: AgentInternals,
    readonly udpPort: UdpPort,
    /** The network between the page and the plane (network scenarios): what goes out passes it, and what comes in. */
    readonly link: TransportLink,
  ) {
    const w = ports.werift;
    this.udp = new PortProtocol(
      w,
      'stun',
      (data, [host, port]) => link.outbound(data.length, () => udpPort.send(data, host, port)),
      () => this.close(),
    );
    this.tcp = ports.hasTcp
      ? new PortProtocol(
          w,
          'tcp',
          (data, [host, port]) => link.outbound(data.length, () => this.sendTcp(data, key(host, port))),
          () => this.close(),
        )
      : undefined;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * A verified check is about to reach the agent. When it nominates (USE-CANDIDATE) another path
   * than the one media goes out on, that path wins: werift's ICE-lite agent keeps its first
   * nomination for good, but a browser nominates anew when it reconnects (a TCP connection cut and
   * made again, a network change), and media must follow it.
   */
  checked(message: Message, protocol: PortProtocol, host: string, port: number): void {
    const current = this.agent.nominated;
    if (!current || !message.attributesKeys.includes('USE-CANDIDATE')) return;
    if (current.protocol !== protocol || current.remoteAddr[0] !== host || current.remoteAddr[1] !== port) this.agent.resetNominatedPair();
  }

  /** The password that goes with one of the transport's ufrags (the current one, or one before an ICE restart). */
  passwordOf(ufrag: string): string | undefined {
    return this.agent.userHistory[ufrag] ?? (ufrag === this.agent.localUsername ? this.agent.localPassword : undefined);
  }

  /** Ends what the transport holds here: its ufrags and addresses are forgotten, its TCP connections closed, its own UDP socket too. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.ports.forget(this);
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    this.ports.release(this.udpPort);
  }

  private sendTcp(data: Buffer, to: string): void {
    const socket = this.connections.get(to);
    if (!socket || socket.destroyed || socket.writableLength > MAX_TCP_QUEUE) return;
    const header = Buffer.allocUnsafe(2);
    header.writeUInt16BE(data.length, 0);
    socket.cork();
    socket.write(header);
    socket.write(data);
    socket.uncork();
  }
}

/** A UDP socket and the transports it carries: every transport (shared), or one (a port of the range). */
export class UdpPort {
  /** Sender address → the transport a verified check tied it to. */
  private readonly routes = new Map<string, Endpoint>();
  readonly members = new Set<Endpoint>();
  private closed = false;

  private constructor(
    private readonly ports: IcePorts,
    private readonly socket: dgram.Socket,
  ) {
    socket.on('message', (data, rinfo) => this.received(data, rinfo.address, rinfo.port));
    // A send to a page that went away fails (ICMP unreachable): nothing to do, the page's transport ends on its own.
    socket.on('error', () => undefined);
  }

  static async bind(ports: IcePorts, address: string, port: number): Promise<UdpPort> {
    const socket = dgram.createSocket({ type: net.isIPv6(address) ? 'udp6' : 'udp4' });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address, port, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      socket.close();
      throw err;
    }
    return new UdpPort(ports, socket);
  }

  get port(): number {
    return this.socket.address().port;
  }

  send(data: Buffer, host: string, port: number): void {
    if (this.closed) return;
    this.socket.send(data, port, host, () => undefined);
  }

  forget(endpoint: Endpoint): void {
    this.members.delete(endpoint);
    for (const address of endpoint.addresses) if (this.routes.get(address) === endpoint) this.routes.delete(address);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.routes.clear();
    this.socket.close();
  }

  private received(data: Buffer, host: string, port: number): void {
    const from = key(host, port);
    const w = this.ports.werift;
    if (w.isStunMessage(data)) {
      const hit = this.ports.identify(data, this.members);
      if (!hit) return this.ports.dropped(`${host}:${port}`, 'udp');
      const before = this.routes.get(from);
      if (before !== hit.endpoint) {
        before?.addresses.delete(from);
        this.routes.set(from, hit.endpoint);
        hit.endpoint.addresses.add(from);
      }
      const { endpoint, message } = hit;
      if (!endpoint.link.admitsCheck(hit.ufrag)) return;
      endpoint.link.inbound(data.length, () => {
        if (endpoint.isClosed) return;
        endpoint.checked(message, endpoint.udp, host, port);
        endpoint.udp.onRequestReceived.execute(message, [host, port], data);
      });
      return;
    }
    const endpoint = this.routes.get(from);
    if (!endpoint) return this.ports.dropped(`${host}:${port}`, 'udp');
    endpoint.link.inbound(data.length, () => {
      if (!endpoint.isClosed) endpoint.udp.onDataReceived.execute(data);
    });
  }
}

/** The shared TCP listener: each connection is tied to the transport its first check verifies for. */
class TcpPort {
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly ports: IcePorts,
    private readonly server: net.Server,
  ) {
    server.on('connection', (socket) => this.accepted(socket));
    server.on('error', () => undefined);
  }

  static async listen(ports: IcePorts, host: string, port: number): Promise<TcpPort> {
    const server = net.createServer({ noDelay: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new TcpPort(ports, server);
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accepted(socket: net.Socket): void {
    this.sockets.add(socket);
    const host = socket.remoteAddress ?? '';
    const port = socket.remotePort ?? 0;
    const from = key(host, port);
    let endpoint: Endpoint | undefined;
    let pending: Buffer = Buffer.alloc(0);
    const unidentified = setTimeout(() => socket.destroy(), IDENTIFY_MS).unref();
    const w = this.ports.werift;
    const refuse = () => {
      this.ports.dropped(`${host}:${port}`, 'tcp');
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const { frames, rest } = w.splitTcpFrames(pending);
      pending = rest.length === 0 ? Buffer.alloc(0) : Buffer.from(rest);
      if (pending.length > MAX_UNFRAMED) return refuse();
      for (const frame of frames) {
        if (socket.destroyed) return;
        if (w.isStunMessage(frame)) {
          const hit = this.ports.identify(frame, undefined);
          // A connection carries one transport: until a check ties it to one, anything else ends it;
          // once tied, a check that verifies for no transport, or for another, is left unanswered.
          if (!hit || (endpoint && hit.endpoint !== endpoint)) {
            if (!endpoint) return refuse();
            continue;
          }
          if (!endpoint) {
            endpoint = hit.endpoint;
            clearTimeout(unidentified);
            endpoint.connections.get(from)?.destroy();
            endpoint.connections.set(from, socket);
          }
          const tied = endpoint;
          if (tied.tcp && tied.link.admitsCheck(hit.ufrag))
            tied.link.inbound(frame.length, () => {
              if (tied.isClosed || !tied.tcp) return;
              tied.checked(hit.message, tied.tcp, host, port);
              tied.tcp.onRequestReceived.execute(hit.message, [host, port], frame);
            });
          continue;
        }
        if (!endpoint) return refuse();
        const tied = endpoint;
        tied.link.inbound(frame.length, () => {
          if (!tied.isClosed) tied.tcp?.onDataReceived.execute(frame);
        });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(unidentified);
      this.sockets.delete(socket);
      if (endpoint?.connections.get(from) === socket) endpoint.connections.delete(from);
    });
  }
}

/**
 * The plane's sockets, opened once for all its transports (open), and the transports' ICE agents
 * on them (adopt). close() frees every socket; a transport's own close frees what it held here.
 */
export class IcePorts {
  /** Transports by each ufrag they have answered to. */
  private readonly byUfrag = new Map<string, Set<Endpoint>>();
  private readonly endpoints = new Map<AgentInternals, Endpoint>();
  /** Free ports of the range (a range only), lowest first. */
  private readonly free: number[];
  private sharedUdp: UdpPort | undefined;
  private tcpPort: TcpPort | undefined;
  private droppedCount = 0;
  private lastNotice = -Infinity;
  private closed = false;

  private constructor(
    readonly werift: Werift,
    /** The bound address. */
    readonly address: string,
    readonly candidates: string[],
    private readonly network: MediaNetwork,
    private readonly notice: Notice,
  ) {
    const range = this.range;
    this.free = range ? portsOf(range) : [];
  }

  /**
   * Binds the sockets on the network's host (a name is resolved first): the shared UDP port (unless
   * a range gives each transport its own) and the TCP port. A fixed port has one number for both
   * kinds, as a user maps them (with a range, the TCP port is its first).
   */
  static async open(w: Werift, network: MediaNetwork, notice: Notice): Promise<IcePorts> {
    const host = bareAddress(network.host);
    const address = net.isIP(host) ? host : (await lookup(host)).address;
    const ports = new IcePorts(w, address, candidateAddresses(address, network.announce), network, notice);
    try {
      const range = ports.range;
      const fixed = range ? range.from : (network.ports as number);
      if (!range) ports.sharedUdp = await retried(() => UdpPort.bind(ports, address, fixed), fixed !== 0);
      ports.tcpPort = await retried(() => TcpPort.listen(ports, address, fixed), fixed !== 0);
    } catch (err) {
      ports.close();
      throw err;
    }
    return ports;
  }

  private get range(): { from: number; to: number } | undefined {
    return typeof this.network.ports === 'number' ? undefined : this.network.ports;
  }

  get hasTcp(): boolean {
    return this.tcpPort !== undefined;
  }

  /** Where media listens now. */
  listening(): MediaListening {
    return {
      address: this.address,
      candidates: this.candidates,
      udp_port: this.sharedUdp?.port ?? null,
      udp_port_range: this.range ?? null,
      tcp_port: this.tcpPort?.port ?? null,
    };
  }

  /** Packets dropped so far (unknown senders, checks no transport verifies). */
  get droppedPackets(): number {
    return this.droppedCount;
  }

  /**
   * Puts a transport's ICE agent on these sockets: it gathers this layer's candidates instead of
   * opening sockets of its own (werift gathers when the local description is set: each answer and
   * offer, and after an ICE restart with the new ufrag).
   */
  adopt(connection: Connection, udp: UdpPort, link: TransportLink): void {
    const agent = connection as unknown as AgentInternals;
    if (this.endpoints.has(agent) || agent.localCandidatesStart) return;
    agent.gatherCandidates = async () => {
      if (!agent.localCandidatesStart) {
        agent.localCandidatesStart = true;
        const endpoint = this.endpointOf(agent, udp, link);
        this.index(endpoint, agent.localUsername);
        for (const candidate of this.candidatesOf(endpoint)) agent.appendLocalCandidate(candidate);
        agent.localCandidatesEnd = true;
      }
      agent.setState('completed');
    };
  }

  /** The transport a STUN binding request is for, once its MESSAGE-INTEGRITY checks out with that transport's password (among `among`, if given). */
  identify(data: Buffer, among: ReadonlySet<Endpoint> | undefined): { endpoint: Endpoint; message: Message; ufrag: string } | undefined {
    const w = this.werift;
    const message = w.parseMessage(data);
    if (!message || message.messageClass !== w.classes.REQUEST || message.messageMethod !== w.methods.BINDING) return undefined;
    const username: unknown = message.getAttributeValue('USERNAME');
    if (typeof username !== 'string') return undefined;
    const ufrag = username.split(':')[0]!;
    for (const endpoint of this.byUfrag.get(ufrag) ?? []) {
      if (among && !among.has(endpoint)) continue;
      const password = endpoint.passwordOf(ufrag);
      const verified = password === undefined ? undefined : w.parseMessage(data, Buffer.from(password, 'utf8'));
      if (verified) return { endpoint, message: verified, ufrag };
    }
    return undefined;
  }

  /** A packet no transport takes: counted, and told at once the first time, then at most once a minute. */
  dropped(from: string, transport: 'udp' | 'tcp'): void {
    this.droppedCount++;
    const now = realNow();
    if (now - this.lastNotice < DROP_NOTICE_GAP_MS) return;
    this.lastNotice = now;
    this.notice('media port: packets from a sender no transport knows are dropped', { from, transport, dropped: this.droppedCount });
  }

  forget(endpoint: Endpoint): void {
    for (const ufrag of endpoint.ufrags) {
      const set = this.byUfrag.get(ufrag);
      set?.delete(endpoint);
      if (set?.size === 0) this.byUfrag.delete(ufrag);
    }
    endpoint.udpPort.forget(endpoint);
    this.endpoints.delete(endpoint.agent);
  }

  /** Frees every socket (the plane's stop); the transports still on them hear nothing more. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const endpoint of [...this.endpoints.values()]) endpoint.close();
    this.sharedUdp?.close();
    this.tcpPort?.close();
  }

  private index(endpoint: Endpoint, ufrag: string): void {
    endpoint.ufrags.add(ufrag);
    endpoint.link.answersTo(ufrag);
    let set = this.byUfrag.get(ufrag);
    if (!set) this.byUfrag.set(ufrag, (set = new Set()));
    set.add(endpoint);
  }

  /**
   * The UDP socket a new transport is to use: the shared one, or, with a range, the lowest free port
   * of the range that binds (another program may hold some). A transport claims it before it
   * opens, so that a full range refuses the transport at once; release() gives it back.
   */
  async claim(): Promise<UdpPort> {
    if (this.closed) throw new Error('the media ports are closed');
    if (this.sharedUdp) return this.sharedUdp;
    for (;;) {
      const port = this.free.shift();
      if (port === undefined) throw new Error(`every UDP port of the range ${describeRange(this.network)} is taken (--media-port)`);
      try {
        return await UdpPort.bind(this, this.address, port);
      } catch {
        // Taken by another program: the next one.
      }
    }
  }

  /** A transport let its UDP socket go: a range's port is closed and free again (the shared one stays). */
  release(udp: UdpPort): void {
    if (udp === this.sharedUdp || udp.isClosed) return;
    if (!this.closed) this.free.push(udp.port);
    udp.close();
  }

  /** The transport's place here, made at its first gathering on the socket it claimed. */
  private endpointOf(agent: AgentInternals, udp: UdpPort, link: TransportLink): Endpoint {
    const known = this.endpoints.get(agent);
    if (known) return known;
    if (this.closed) throw new Error('the media ports are closed');
    const endpoint = new Endpoint(this, agent, udp, link);
    udp.members.add(endpoint);
    this.endpoints.set(agent, endpoint);
    for (const protocol of [endpoint.udp, endpoint.tcp]) {
      if (!protocol) continue;
      agent.ensureProtocol(protocol);
      agent.protocols.push(protocol);
    }
    return endpoint;
  }

  /** Host candidates for each offered address: UDP, and TCP passive (RFC 6544), with the agent's generation and ufrag. */
  private candidatesOf(endpoint: Endpoint): Candidate[] {
    const w = this.werift;
    const { generation, localUsername } = endpoint.agent;
    const out: Candidate[] = [];
    const make = (address: string, transport: 'udp' | 'tcp', port: number) =>
      new w.Candidate(
        w.candidateFoundation('host', transport, address),
        1,
        transport,
        w.candidatePriority('host', transport === 'udp' ? { transport } : { transport, tcptype: 'passive' }),
        address,
        port,
        'host',
        undefined,
        undefined,
        transport === 'tcp' ? 'passive' : undefined,
        generation,
        localUsername,
      );
    for (const address of this.candidates) {
      out.push(make(address, 'udp', endpoint.udpPort.port));
      if (this.tcpPort) out.push(make(address, 'tcp', this.tcpPort.port));
    }
    // werift pairs what comes in with the protocol's own candidate: the first address's.
    endpoint.udp.localCandidate = out[0];
    endpoint.udp.localIp = this.candidates[0];
    if (endpoint.tcp) {
      endpoint.tcp.localCandidate = out[1];
      endpoint.tcp.localIp = this.candidates[0];
    }
    return out;
  }
}

function describeRange(network: MediaNetwork): string {
  return typeof network.ports === 'number' ? String(network.ports) : `${network.ports.from}-${network.ports.to}`;
}

/** A bind, tried again for a moment when the port is taken and was asked for by number (a plane on its way out may still hold it). */
async function retried<T>(bind: () => Promise<T>, fixed: boolean): Promise<T> {
  const deadline = realNow() + BIND_WAIT_MS;
  for (;;) {
    try {
      return await bind();
    } catch (err) {
      if (!fixed || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || realNow() > deadline) throw err;
      await realSleep(RETRY_MS);
    }
  }
}
