// The media plane's process and its idle time (ProcessMediaEngine, --media-plane-idle-ms): a child
// that holds nothing stays for the idle time and is let go when it has passed; anything asked of it
// in the meantime keeps it; a child that died or was ended leaves no wait behind that could end
// another. The child is real (a bot's clip is what it holds); the idle time runs on vitest's fake
// timers, which the engine's own timer uses, so that no test waits for it in real time.
// And where the child starts from when the emulator runs from its sources: the bundle named in
// PLANE_BUNDLE_VARIABLE (the test run's global setup names dist/bin/media-plane.mjs), or, with none
// named, the TypeScript entry through tsx; either way it works (it plays a bot's clip).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../src/logger.js';
import type { ProducerInfo } from '../../../src/realtime/media/media-types.js';
import { PLANE_BUNDLE_VARIABLE, ProcessMediaEngine } from '../../../src/realtime/media/process-engine.js';
import { processExists } from '../../helpers/proc-sockets.js';

const NETWORK = { host: '127.0.0.1', ports: 0, announce: undefined } as const;
const IDLE_MS = 10_000;

const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };

/** A bot's camera: the sample clip, played in the child. */
const camera = (id: string): ProducerInfo => ({
  id,
  peerId: 'bot',
  participantId: 'bot',
  kind: 'video',
  screenShare: false,
  appData: '{}',
  mimeType: 'video/VP8',
  transportId: '',
});

const engines: ProcessMediaEngine[] = [];

/** An engine with a child that holds nothing (warmed, then cooled), and the child's pid; the fake timers are on. */
async function idleEngine(idleMs: number, log = logger()): Promise<{ engine: ProcessMediaEngine; pid: number }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const engine = new ProcessMediaEngine(log, NETWORK, idleMs);
  engines.push(engine);
  await engine.warm();
  const pid = engine.pid!;
  engine.cool();
  await idling(engine);
  return { engine, pid };
}

/**
 * Waits until the child has answered all it was asked and told, holding nothing: its idle time has
 * started (the engine's one timer), or, with none, it is let go. The child answers each call as it
 * is done with it, so an answer does not tell that the calls before it are answered.
 */
async function idling(engine: ProcessMediaEngine): Promise<void> {
  for (let turns = 0; turns < 100_000 && vi.getTimerCount() === 0 && engine.pid !== null; turns++) await new Promise((resolve) => setImmediate(resolve));
  expect(vi.getTimerCount() === 1 || engine.pid === null).toBe(true);
}

afterEach(async () => {
  vi.useRealTimers();
  for (const engine of engines.splice(0)) await engine.close();
});

describe("the media plane's process, idle", () => {
  it('stays while it has held nothing for less than the idle time, and is let go once it has', async () => {
    const { engine, pid } = await idleEngine(IDLE_MS);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(engine.pid).toBe(pid);
    vi.advanceTimersByTime(1);
    expect(engine.pid).toBeNull();
    await engine.close();
    expect(processExists(pid)).toBe(false);
  });

  it('with no idle time, is let go as soon as it holds nothing', async () => {
    const { engine, pid } = await idleEngine(0);
    expect(engine.pid).toBeNull();
    await engine.close();
    expect(processExists(pid)).toBe(false);
  });

  it('a track it is given keeps it past the idle time; the idle time starts again once the track ends', async () => {
    const { engine, pid } = await idleEngine(IDLE_MS);
    vi.advanceTimersByTime(IDLE_MS / 2);
    await engine.botTrack('bot', camera('cam'));
    vi.advanceTimersByTime(IDLE_MS * 3);
    expect(engine.pid).toBe(pid);
    expect(vi.getTimerCount()).toBe(0);
    engine.closeProducer('cam');
    await idling(engine);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(engine.pid).toBe(pid);
    vi.advanceTimersByTime(1);
    expect(engine.pid).toBeNull();
  });

  it('a question it answers with nothing held starts the idle time again', async () => {
    const { engine, pid } = await idleEngine(IDLE_MS);
    vi.advanceTimersByTime(IDLE_MS - 1);
    // Its answer comes back with nothing held, and the wait starts again from here.
    expect(await engine.recorderStatus('none')).toBeNull();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(engine.pid).toBe(pid);
    vi.advanceTimersByTime(1);
    expect(engine.pid).toBeNull();
  });

  it('a child that dies while idle, or one a reset ends, leaves no wait behind: the next child stays, and nothing is logged as failed', async () => {
    const log = logger();
    const { engine, pid } = await idleEngine(IDLE_MS, log);
    const lost = new Promise<void>((resolve) => engine.onPlaneLost(resolve));
    process.kill(pid, 'SIGKILL');
    await lost;
    expect(engine.pid).toBeNull();
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ signal: 'SIGKILL' }), expect.stringContaining('ended unexpectedly'));
    log.error.mockClear();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(log.error).not.toHaveBeenCalled();

    // A new child, busy; the old child's wait, had it been left, would now end it.
    await engine.botTrack('bot', camera('cam'));
    const next = engine.pid!;
    expect(next).not.toBe(pid);
    engine.closeProducer('cam');
    await idling(engine);
    engine.reset();
    expect(engine.pid).toBeNull();
    await engine.botTrack('bot', camera('cam 2'));
    const third = engine.pid!;
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(engine.pid).toBe(third);
    expect(log.error).not.toHaveBeenCalled();
  });
});

describe.skipIf(process.platform !== 'linux')("the media plane's process, from the sources", () => {
  /** The started child's command line, once it plays a bot's camera. */
  async function childCommandLine(): Promise<string[]> {
    const engine = new ProcessMediaEngine(logger(), NETWORK);
    engines.push(engine);
    await engine.botTrack('bot', camera('cam'));
    expect(engine.pid).not.toBeNull();
    return readFileSync(`/proc/${engine.pid!}/cmdline`, 'utf8').split('\0').filter(Boolean);
  }

  it('starts from the bundle the variable names', async () => {
    const bundle = process.env[PLANE_BUNDLE_VARIABLE];
    expect(bundle, 'the global setup names the bundle').toMatch(/dist\/bin\/media-plane\.mjs$/);
    const args = await childCommandLine();
    expect(args.slice(1)).toContain(bundle);
    expect(args).not.toContain('tsx');
  });

  it('starts from the TypeScript entry through tsx when the variable names none', async () => {
    vi.stubEnv(PLANE_BUNDLE_VARIABLE, '');
    const args = await childCommandLine();
    expect(args.find((a) => a.endsWith('.ts'))).toMatch(/src\/realtime\/media\/plane\/plane-process\.ts$/);
    expect(args).toContain('tsx');
  });
});
