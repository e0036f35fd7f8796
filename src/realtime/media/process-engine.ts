// The media plane in a process of its own: the same engine (LocalMediaEngine) behind an IPC
// channel, in a child started with the first transport or bot track (or ahead of a page's first
// transport: warm(), when the page joins the media room) and ended once it has held nothing for a
// while (idleMs): the next page within that time uses the same child and saves the child's start
// (about 0.27 s and 0.32 s of CPU from the bundle; 0.5 s and 0.66 s from the sources through tsx).
// werift's endpoints, every packet buffer and the crypto of each stream live and die
// there: glibc keeps the heap a busy room grew, fragmented, for the life of the process that grew
// it, so a room's memory goes back to the system only with the process that carried it.
//
// Calls keep their order (one channel); each is answered with the result and what the engine holds
// afterwards, and the child is let go once nothing has been held and no call has been on its way
// for idleMs. A child that dies is told to the media room, which fails every transport and track
// it held, as a lost network would (the pages make new ones).
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../logger.js';
import { TransportClosed } from '../unserved.js';
import { revived, type ConsumerOrder, type EngineCall, type EngineHolds, type EngineOp, type EngineReply, type MediaEngine } from './engine.js';
import type {
  Direction,
  LinkConditions,
  LivestreamSpec,
  ProducerInfo,
  RecorderClock,
  RecorderEvent,
  RecorderResult,
  RecorderSpec,
  RecorderStatus,
  RoomScene,
} from './media-types.js';
import type { MediaListening, MediaNetwork } from './media-network.js';

/**
 * V8's young generation in the plane's process capped at 1 MB a semi-space (its default grows to 16
 * under allocation): forwarding allocates a few short-lived objects per packet, and with the default
 * V8 grew the young generation to its maximum under a room's traffic and kept it. Measured with a
 * room of six pages (bench/media-plane-memory.ts --room 6): 1.0 MB per open transport instead of
 * 2.9, the plane with one transport at 66 MB of RSS instead of 79, and no more CPU per forwarded
 * packet within the noise (bench/MEDIA-PLANE.md).
 */
// Stryker disable next-line ArrayDeclaration,StringLiteral: without the flag the plane does the same and holds more memory; bench/media-plane-memory.ts measures it.
export const PLANE_V8_FLAGS = ['--max-semi-space-size=1'];

/**
 * From the sources, the plane's bundle (dist/bin/media-plane.mjs) when this variable names it: the
 * test run builds it once and names it here (test/setup/bundles.ts). Through tsx, each start of
 * the plane's process loads and transforms its modules anew, werift's among them: 690–720 ms of CPU
 * to werift loaded, against 160–180 from the bundle, which holds werift; a test run starts it 80–90
 * times.
 */
export const PLANE_BUNDLE_VARIABLE = 'MEETINGS_EMULATOR_MEDIA_PLANE_BUNDLE';

/**
 * The child's entry: the bundled one next to the bundled command line, the compiled one below this
 * module, or, from the sources, the bundle named by PLANE_BUNDLE_VARIABLE or else the TypeScript
 * one run through tsx.
 */
function planeEntry(): { file: string; execArgv: string[] } {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  for (const file of [path.join(dir, 'media-plane.mjs'), path.join(dir, 'plane', 'plane-process.js')])
    if (existsSync(file)) return { file, execArgv: PLANE_V8_FLAGS };
  const bundle = process.env[PLANE_BUNDLE_VARIABLE];
  if (bundle) return { file: bundle, execArgv: PLANE_V8_FLAGS };
  return { file: path.join(dir, 'plane', 'plane-process.ts'), execArgv: [...PLANE_V8_FLAGS, '--import', 'tsx'] };
}

export class ProcessMediaEngine implements MediaEngine {
  private child: ChildProcess | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private readonly failedListeners: Array<(id: string) => void> = [];
  private readonly recoveredListeners: Array<(id: string) => void> = [];
  private readonly lostListeners: Array<() => void> = [];
  private readonly recorderListeners: Array<(event: RecorderEvent) => void> = [];
  /** Children let go or killed that have not exited yet: the emulator's stop waits for them. */
  private readonly ending = new Set<Promise<void>>();

  /** Where the child's sockets listen, as it last told (null while it has none open, or no child runs). */
  private current: MediaListening | null = null;
  /** A child started by warm() that no transport has used yet: kept while it holds nothing, until cool() or its first use. */
  private warming = false;
  /** Set while the child holds nothing and nothing is asked of it: it is let go when this fires (real time). */
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    /** Where the child's sockets listen (--host, --media-port, --media-announce). */
    private readonly network: MediaNetwork,
    /** How long a child that holds nothing is kept for the next use, in real ms (--media-plane-idle-ms); 0: let go at once. */
    private readonly idleMs = 0,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get listening(): MediaListening | null {
    return this.child ? this.current : null;
  }

  warm(): Promise<void> {
    // A running child needs no warming: an idle one is kept for the idle time, which the page's
    // first transport (about 0.1 s away) stops.
    if (this.child) return Promise.resolve();
    this.warming = true;
    return this.call<void>('warm', [], true).catch(() => undefined);
  }

  cool(): void {
    if (!this.warming) return;
    this.warming = false;
    // Its answer carries what the child holds: one that holds nothing is let go.
    this.tell('warm', []);
  }

  openTransport(id: string, direction: Direction, offer: string): Promise<string> {
    return this.call('openTransport', [id, direction, offer], true);
  }

  answer(transportId: string, offer: string): Promise<string> {
    return this.call('answer', [transportId, offer]);
  }

  accept(transportId: string, answer: string): Promise<void> {
    return this.call('accept', [transportId, answer]);
  }

  closeTransport(id: string): void {
    this.tell('closeTransport', [id]);
  }

  produce(info: ProducerInfo, paused: boolean, offer: string, mid: string): Promise<string> {
    return this.call('produce', [info, paused, offer, mid]);
  }

  botTrack(botId: string, info: ProducerInfo): Promise<void> {
    return this.call('botTrack', [botId, info], true);
  }

  pauseProducer(id: string, paused: boolean): void {
    this.tell('pauseProducer', [id, paused]);
  }

  closeProducer(id: string): void {
    this.tell('closeProducer', [id]);
  }

  consume(transportId: string, orders: ConsumerOrder[]): Promise<{ offer: string; mids: string[] }> {
    return this.call('consume', [transportId, orders]);
  }

  closeConsumer(id: string): void {
    this.tell('closeConsumer', [id]);
  }

  preferLayer(consumerId: string, layer: string): void {
    this.tell('preferLayer', [consumerId, layer]);
  }

  startRecorder(spec: RecorderSpec, scene: RoomScene, clock: RecorderClock): Promise<void> {
    return this.call('startRecorder', [spec, scene, clock], true);
  }

  setScene(scene: RoomScene): void {
    this.tell('setScene', [scene]);
  }

  setRecorderClock(id: string, clock: RecorderClock): void {
    this.tell('setRecorderClock', [id, clock]);
  }

  stopRecorder(id: string, finalMs: number): Promise<RecorderResult> {
    return this.call('stopRecorder', [id, finalMs]);
  }

  cancelRecorder(id: string): void {
    this.tell('cancelRecorder', [id]);
  }

  recorderStatus(id: string): Promise<RecorderStatus | null> {
    return this.child ? this.call('recorderStatus', [id]) : Promise.resolve(null);
  }

  startLivestream(spec: LivestreamSpec, scene: RoomScene | null): Promise<void> {
    return this.call('startLivestream', [spec, scene], true);
  }

  feedLivestream(id: string, bytes: Uint8Array): void {
    this.tell('feedLivestream', [id, bytes]);
  }

  stopLivestream(id: string): Promise<void> {
    return this.told('stopLivestream', [id]);
  }

  onRecorderEvent(listener: (event: RecorderEvent) => void): void {
    this.recorderListeners.push(listener);
  }

  onTransportFailed(listener: (transportId: string) => void): void {
    this.failedListeners.push(listener);
  }

  onPlaneLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  shape(id: string, link: LinkConditions | null): void {
    this.tell('shape', [id, link]);
  }

  onPathRecovered(listener: (transportId: string) => void): void {
    this.recoveredListeners.push(listener);
  }

  reset(): void {
    void this.end();
  }

  close(): Promise<void> {
    return this.end();
  }

  /** Sends a call; only a call that opens something starts a child (the others have nothing to act on without one). */
  private call<T>(op: EngineOp, args: unknown[], starts = false): Promise<T> {
    if (!this.child && !starts) return Promise.reject(new TransportClosed());
    // A warmed child is used: from now on it ends once it holds nothing, as any.
    if (op !== 'warm') this.warming = false;
    this.stopIdling();
    const child = (this.child ??= this.start());
    // Stryker disable next-line UpdateOperator: any number not used before names the call.
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, op, args } satisfies EngineCall);
    });
  }

  /** A call whose answer nobody waits for (a close, a pause): with no child there is nothing to tell. */
  private tell(op: EngineOp, args: unknown[]): void {
    void this.told(op, args);
  }

  /** A call that answers nothing but when it is done (or the plane is gone, which ends what it held); it never fails. */
  private told(op: EngineOp, args: unknown[]): Promise<void> {
    if (!this.child) return Promise.resolve();
    return this.call(op, args).then(
      () => undefined,
      (err: Error) => {
        if (!(err instanceof TransportClosed)) this.logger.warn({ err, op }, 'media plane call failed');
      },
    );
  }

  private start(): ChildProcess {
    const { file, execArgv } = planeEntry();
    this.current = null;
    // A process group of its own, so that its end takes the encoders and decoders it started with it.
    const child = fork(file, [JSON.stringify(this.network)], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    child.on('message', (msg: EngineReply) => this.onReply(child, msg));
    child.on('error', (err) => this.logger.error({ err }, 'media plane process error'));
    child.on('exit', (code, signal) => {
      if (child !== this.child) return;
      this.logger.error({ code, signal }, 'media plane process ended unexpectedly; its transports are failed');
      this.child = undefined;
      this.warming = false;
      this.stopIdling();
      killGroup(child);
      this.rejectPending();
      for (const listener of this.lostListeners) listener();
    });
    this.logger.debug({ pid: child.pid }, 'media plane process started');
    return child;
  }

  private onReply(child: ChildProcess, msg: EngineReply): void {
    if (child !== this.child) return;
    if ('failed' in msg) {
      for (const listener of this.failedListeners) listener(msg.failed);
      return;
    }
    if ('recovered' in msg) {
      for (const listener of this.recoveredListeners) listener(msg.recovered);
      return;
    }
    if ('log' in msg) {
      this.logger[msg.log.level](msg.log.fields, msg.log.message);
      return;
    }
    if ('recorder' in msg) {
      for (const listener of this.recorderListeners) listener(msg.recorder);
      return this.letGoWhenIdle(child, msg.holds);
    }
    if ('listening' in msg) {
      this.current = msg.listening;
      return;
    }
    const waiting = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    if (waiting) {
      if (msg.error) waiting.reject(revived(msg.error));
      else waiting.resolve(msg.value);
    }
    this.letGoWhenIdle(child, msg.holds);
  }

  /** Lets the child go once it holds nothing and no call is on its way, after idleMs more of the same. */
  private letGoWhenIdle(child: ChildProcess, holds: EngineHolds): void {
    if (this.warming) return;
    const { transports, producers, consumers, recordings, livestreams = 0 } = holds;
    if (this.pending.size !== 0 || transports + producers + consumers + recordings + livestreams !== 0) return;
    if (this.idleMs === 0) return this.letGo(child);
    // Every call stops the wait (call()); its answer starts it again if the child is idle still.
    this.stopIdling();
    this.idle = setTimeout(() => {
      this.idle = undefined;
      this.letGo(child);
    }, this.idleMs).unref();
  }

  private letGo(child: ChildProcess): void {
    this.logger.debug({ pid: child.pid }, 'media plane process holds nothing; ended');
    this.child = undefined;
    this.ended(child);
    child.disconnect();
  }

  private stopIdling(): void {
    clearTimeout(this.idle);
    this.idle = undefined;
  }

  private rejectPending(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.reject(new TransportClosed());
  }

  /** Ends the child now (a reset, the emulator's stop), and resolves once every child let go has exited. */
  private async end(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.warming = false;
    this.stopIdling();
    this.rejectPending();
    if (child) {
      this.ended(child);
      killGroup(child);
    }
    await Promise.all(this.ending);
  }

  /** Keeps a child that is on its way out in `ending` until it has exited. */
  private ended(child: ChildProcess): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.ending.add(exited);
    void exited.then(() => this.ending.delete(exited));
  }
}

/** Kills the child and every process it started (its group: the recorder's encoders and decoders). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already; the child itself may still need its signal.
    child.kill('SIGKILL');
  }
}
