// The packages of the web SDK's features (ws, protobufjs, werift, @peculiar/x509) are not loaded
// by a start that does not use them: scripts/build.mjs keeps them out of the bundled command line,
// to be required from node_modules when the code that needs them first runs. A preloaded hook
// reports every load of one of them.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../helpers/spawn-emulator.js';

const HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'on-demand-hook.mjs');

let running: RunningCli | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
});

describe('on-demand packages', () => {
  it('a start, a health check and a created meeting load none of them', async () => {
    running = await startCli(['--clock', 'manual', '--seed', 'on-demand'], { NODE_OPTIONS: `--import ${JSON.stringify(pathToFileURL(HOOK).href)}` });
    const header = /v2 header: Authorization: (Basic \S+)/.exec(running.stdout())![1]!;
    expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
    const created = await fetch(`${running.url}/v2/meetings`, {
      method: 'POST',
      headers: { authorization: header, 'content-type': 'application/json' },
      body: '{"title":"on demand"}',
    });
    expect(created.status).toBe(201);
    const stopped = await running.stop('SIGTERM');
    const stderr = running.stderr();
    running = undefined;
    expect(stopped.code).toBe(0);
    expect(stderr).toContain('on-demand hook active');
    expect(stderr).not.toContain('on-demand package loaded');
  });
});
