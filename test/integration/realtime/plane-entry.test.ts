// Where the media plane's process starts from, when the emulator runs from its sources: the bundle
// named in PLANE_BUNDLE_VARIABLE (the test run's global setup names dist/bin/media-plane.mjs), or,
// with none named, the TypeScript entry through tsx. Either way the child works: it answers, and
// plays a bot's clip.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../src/logger.js';
import { PLANE_BUNDLE_VARIABLE, ProcessMediaEngine } from '../../../src/realtime/media/process-engine.js';

const NETWORK = { host: '127.0.0.1', ports: 0, announce: undefined } as const;
const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as Logger;

const engines: ProcessMediaEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

/** The started child's command line, once it has answered and holds a bot's camera. */
async function childCommandLine(): Promise<string[]> {
  const engine = new ProcessMediaEngine(logger(), NETWORK);
  engines.push(engine);
  await engine.botTrack('bot', {
    id: 'cam',
    peerId: 'bot',
    participantId: 'bot',
    kind: 'video',
    screenShare: false,
    appData: '{}',
    mimeType: 'video/VP8',
    transportId: '',
  });
  expect(engine.pid).not.toBeNull();
  return readFileSync(`/proc/${engine.pid!}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe.skipIf(process.platform !== 'linux')("the media plane's process, from the sources", () => {
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
