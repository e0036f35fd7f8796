// What the media plane's own process costs a room's first transport: the time from the
// emulator's call to the SDP answer, for a fresh plane (a child process started by the call, the
// default) and for the plane in this process (--media-plane inline, werift already loaded), each
// run `--runs` times. The first transport after an idle spell pays the child's start; the next one
// does not (both shown). Run from the built package (npm run build: dist/src), as the emulator runs.
//
//   npx tsx bench/media-plane-start.ts [--runs 5]
import { parseArgs } from 'node:util';
import { RTCPeerConnection } from 'werift';
import type { MediaEngine } from '../src/realtime/media/engine.js';
import type { MediaNetwork } from '../src/realtime/media/media-network.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const dist = new URL('../dist/src/realtime/media/', import.meta.url);
const { ProcessMediaEngine } = (await import(new URL('process-engine.js', dist).href)) as typeof import('../src/realtime/media/process-engine.js');
const { LocalMediaEngine } = (await import(new URL('plane/local-engine.js', dist).href)) as typeof import('../src/realtime/media/plane/local-engine.js');
const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error } as unknown as ConstructorParameters<typeof ProcessMediaEngine>[0];

/** A page's first offer, as the SDK makes it (an audio and a video section). */
async function offer(): Promise<{ pc: RTCPeerConnection; sdp: string }> {
  const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, sdp: pc.localDescription!.sdp };
}

async function timed(engine: MediaEngine, id: string): Promise<number> {
  const { pc, sdp } = await offer();
  const t0 = performance.now();
  await engine.openTransport(id, 'send', sdp);
  const ms = performance.now() - t0;
  await pc.close();
  return Math.round(ms);
}

/** As the emulator runs by default: on the loopback, one port the system picks. */
const NETWORK: MediaNetwork = { host: '127.0.0.1', ports: 0, announce: undefined };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, make] of [
  ['process (default)', () => new ProcessMediaEngine(quiet, NETWORK)],
  ['inline', () => new LocalMediaEngine(undefined, NETWORK)],
] as const) {
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const engine = make();
    first.push(await timed(engine, `a${i}`));
    second.push(await timed(engine, `b${i}`));
    await engine.close();
  }
  console.log(`${name}: first transport ${first.join(', ')} ms (median ${median(first)}); second ${second.join(', ')} ms (median ${median(second)})`);
}
process.exit(0);
