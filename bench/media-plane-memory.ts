// What an open transport costs the media plane's process: the plane started as the emulator starts
// it (ProcessMediaEngine, from the built package: npm run build), with bench/lib/media-probe.mjs
// preloaded (--expose-gc), warmed by one page's transport, which stays open (a plane that holds
// nothing ends: "idle" is the plane with that one transport); then `--transports` pages (werift peers in this process, each with an audio and a video section) open
// a transport each and connect (ICE and DTLS done, SRTP keys made). Read in the plane after a full
// garbage collection, idle and with the transports open: RSS, the V8 heap, memory outside it
// (external, array buffers) and RSS by kind of mapping; per transport = (open − idle) / N. Then the
// transports close and it is read again. With --room P instead: P pages that each publish a camera
// (100 packets of 1 kB a second, for --seconds before the reading) and receive the other pages'
// cameras, a send and a receive transport each (2P transports, P producers, P(P-1) consumers): a
// room's transports as they carry media.
//
//   nice -n 10 npx tsx bench/media-plane-memory.ts [--transports 20 | --room 6 [--seconds 5]] [--rounds 3] [--snapshots DIR] [--plane-flags=--max-semi-space-size=2]
//
// --plane-flags: Node options for the plane's process only (through NODE_OPTIONS), to try V8's settings.
//
// --snapshots DIR writes heap snapshots of the plane idle and with the transports open (for a diff
// by constructor in Chrome DevTools).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MediaStreamTrack, RtpHeader, RtpPacket, type RTCPeerConnection } from 'werift';
import type { MediaNetwork } from '../src/realtime/media/media-network.js';
import type { ProducerInfo } from '../src/realtime/media/media-types.js';
import { openPage, sleep, until } from './lib/forwarding.js';

const { values: args } = parseArgs({
  options: {
    transports: { type: 'string', default: '20' },
    room: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    snapshots: { type: 'string' },
    'plane-flags': { type: 'string', default: '' },
  },
});
/** --room P: P pages that each publish a camera (1 kB packets, 100 a second) and receive the others', for --seconds before the reading: 2P transports. */
const ROOM = args.room === undefined ? 0 : Number(args.room);
const N = ROOM > 0 ? 2 * ROOM : Number(args.transports);
const ROUNDS = Number(args.rounds);

const dist = new URL('../dist/src/realtime/media/', import.meta.url);
const { ProcessMediaEngine } = (await import(new URL('process-engine.js', dist).href)) as typeof import('../src/realtime/media/process-engine.js');
const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error } as unknown as ConstructorParameters<typeof ProcessMediaEngine>[0];
const PROBE = new URL('./lib/media-probe.mjs', import.meta.url).href;
const NETWORK: MediaNetwork = { host: '127.0.0.1', ports: 0, announce: undefined };

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  mappings: { brk: number; arenas: number; anonymous: number; files: number };
}

/** Asks the plane's probe (SIGUSR2, files in `dir`) and waits for its answer. */
async function ask<T>(pid: number, dir: string, msg: object): Promise<T> {
  const answer = path.join(dir, 'answer.json');
  rmSync(answer, { force: true });
  writeFileSync(path.join(dir, 'ask.json'), JSON.stringify(msg));
  process.kill(pid, 'SIGUSR2');
  await until(() => existsSync(answer), 60_000);
  return JSON.parse(readFileSync(answer, 'utf8')) as T;
}

const MB = (n: number) => (n / 1024 / 1024).toFixed(2);

/** The publishers' tracks of the room being measured, to send on. */
let cameras: { track: MediaStreamTrack; payloadType: number; ssrc: number }[] = [];

/** ROOM pages, each a send transport publishing a camera and a receive transport with the others' cameras. */
async function fillRoom(engine: InstanceType<typeof ProcessMediaEngine>, r: number): Promise<{ pcs: RTCPeerConnection[]; ids: string[] }> {
  const pcs: RTCPeerConnection[] = [];
  const ids: string[] = [];
  cameras = [];
  const producers: string[] = [];
  for (let p = 0; p < ROOM; p++) {
    const id = `send-${r}-${p}`;
    const pc = await openPage(engine, id, 'send');
    const track = new MediaStreamTrack({ kind: 'video' });
    const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const info: ProducerInfo = {
      id: `cam-${r}-${p}`,
      peerId: `p${p}`,
      participantId: `p${p}`,
      kind: 'video',
      screenShare: false,
      appData: '{}',
      mimeType: 'video/VP8',
      transportId: id,
    };
    await pc.setRemoteDescription({ type: 'answer', sdp: await engine.produce(info, false, pc.localDescription!.sdp, transceiver.mid!) });
    cameras.push({ track, payloadType: Number(/^a=rtpmap:(\d+) VP8\//m.exec(pc.localDescription!.sdp)![1]), ssrc: 0x1000 + p });
    producers.push(info.id);
    pcs.push(pc);
    ids.push(id);
  }
  for (let p = 0; p < ROOM; p++) {
    const id = `recv-${r}-${p}`;
    const pc = await openPage(engine, id, 'recv');
    const orders = producers.filter((_, q) => q !== p).map((producerId, q) => ({ consumerId: `c-${r}-${p}-${q}`, producerId, layer: 'f' }));
    const { offer } = await engine.consume(id, orders);
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await engine.accept(id, pc.localDescription!.sdp);
    pcs.push(pc);
    ids.push(id);
  }
  return { pcs, ids };
}

/** `seconds` of every camera sending 100 packets of 1 kB a second (a VP8 payload descriptor, then filler). */
async function traffic(seconds: number): Promise<void> {
  const payload = Buffer.concat([Buffer.from([0x10]), Buffer.alloc(1000, 0x5a)]);
  let seq = 0;
  for (let tick = 0; tick < seconds * 10; tick++) {
    for (let i = 0; i < 10; i++) {
      seq++;
      for (const c of cameras)
        c.track.writeRtp(
          new RtpPacket(new RtpHeader({ payloadType: c.payloadType, sequenceNumber: seq & 0xffff, timestamp: seq * 900, ssrc: c.ssrc, marker: true }), payload),
        );
    }
    await sleep(100);
  }
}

async function round(r: number): Promise<{ idle: Memory; open: Memory; closed: Memory }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'plane-memory-'));
  const engine = new ProcessMediaEngine(quiet, NETWORK);
  const saved = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${saved ?? ''} --expose-gc --import ${PROBE} ${args['plane-flags']}`.trim();
  process.env.MEDIA_PROBE_DIR = dir;
  const pcs: RTCPeerConnection[] = [];
  try {
    // The plane's process starts with the first transport, which inherits the variables (nothing else starts a process meanwhile).
    const warm = await openPage(engine, `warm-${r}`, 'send').finally(() => {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
      delete process.env.MEDIA_PROBE_DIR;
    });
    // It stays open: a plane that holds nothing ends (the next transport starts another).
    pcs.push(warm);
    await until(() => warm.connectionState === 'connected');
    await sleep(500);
    const pid = engine.pid!;
    const idle = await ask<Memory>(pid, dir, { probe: 'memory' });
    if (args.snapshots) await ask(pid, dir, { probe: 'snapshot', file: path.resolve(args.snapshots, `plane-idle-${r}.heapsnapshot`) });
    const opened: RTCPeerConnection[] = [];
    const ids: string[] = [];
    if (ROOM > 0) {
      const { pcs: room, ids: roomIds } = await fillRoom(engine, r);
      opened.push(...room);
      ids.push(...roomIds);
    } else
      for (let i = 0; i < N; i++) {
        ids.push(`t-${r}-${i}`);
        opened.push(await openPage(engine, `t-${r}-${i}`, i % 2 === 0 ? 'send' : 'recv'));
      }
    pcs.push(...opened);
    await until(() => pcs.every((pc) => pc.connectionState === 'connected'), 60_000);
    if (ROOM > 0) await traffic(Number(args.seconds));
    await sleep(500);
    const open = await ask<Memory>(pid, dir, { probe: 'memory' });
    if (args.snapshots) await ask(pid, dir, { probe: 'snapshot', file: path.resolve(args.snapshots, `plane-open-${r}.heapsnapshot`) });
    for (let i = 0; i < N; i++) {
      await opened[i]!.close();
      engine.closeTransport(ids[i]!);
    }
    await sleep(500);
    const closed = await ask<Memory>(pid, dir, { probe: 'memory' });
    return { idle, open, closed };
  } finally {
    for (const pc of pcs) await pc.close().catch(() => undefined);
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: { idle: Memory; open: Memory; closed: Memory }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const m = await round(r);
  rows.push(m);
  console.error(
    `round ${r + 1}: idle RSS ${MB(m.idle.rss)} MB, heap ${MB(m.idle.heapUsed)} MB; ${N} open: RSS +${MB((m.open.rss - m.idle.rss) / N)} MB, heap +${MB((m.open.heapUsed - m.idle.heapUsed) / N)} MB, external +${MB((m.open.external - m.idle.external) / N)} MB per transport; closed: RSS ${MB(m.closed.rss)} MB; load ${loadavg()[0]!.toFixed(1)}`,
  );
}
const per = (f: (m: Memory) => number) => MB(median(rows.map((m) => (f(m.open) - f(m.idle)) / N)));
const at = (f: (m: Memory) => number, k: 'idle' | 'open' | 'closed') => MB(median(rows.map((m) => f(m[k]))));
console.log(
  [
    `The media plane's process (built package), with one transport open (a plane that holds nothing ends), then ${ROOM > 0 ? `a room of ${ROOM} pages (${N} transports, each page publishing a camera at 100 packets/s of 1 kB for ${args.seconds} s and receiving the others')` : `${N} transports open (half send, half receive; each page connected, no media)`}, after a full GC; median of ${ROUNDS} rounds, MB:`,
    '',
    '| | RSS | V8 heap used | external | array buffers | brk heap | malloc arenas | other anonymous |',
    '|---|---|---|---|---|---|---|---|',
    `| idle (one transport) | ${at((m) => m.rss, 'idle')} | ${at((m) => m.heapUsed, 'idle')} | ${at((m) => m.external, 'idle')} | ${at((m) => m.arrayBuffers, 'idle')} | ${at((m) => m.mappings.brk, 'idle')} | ${at((m) => m.mappings.arenas, 'idle')} | ${at((m) => m.mappings.anonymous, 'idle')} |`,
    `| per open transport | ${per((m) => m.rss)} | ${per((m) => m.heapUsed)} | ${per((m) => m.external)} | ${per((m) => m.arrayBuffers)} | ${per((m) => m.mappings.brk)} | ${per((m) => m.mappings.arenas)} | ${per((m) => m.mappings.anonymous)} |`,
    `| after the ${N} closed | ${at((m) => m.rss, 'closed')} | ${at((m) => m.heapUsed, 'closed')} | ${at((m) => m.external, 'closed')} | ${at((m) => m.arrayBuffers, 'closed')} | ${at((m) => m.mappings.brk, 'closed')} | ${at((m) => m.mappings.arenas, 'closed')} | ${at((m) => m.mappings.anonymous, 'closed')} |`,
    '',
    `Per transport in each round (RSS): ${rows.map((m) => MB((m.open.rss - m.idle.rss) / N)).join(', ')} MB. Load average at the end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}.`,
  ].join('\n'),
);
process.exit(0);
