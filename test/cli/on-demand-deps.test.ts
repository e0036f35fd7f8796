// The packages of the web SDK's features (ws, protobufjs, werift, @peculiar/x509) and the storage clients (@aws-sdk/client-s3, @azure/storage-blob, ssh2) are not loaded
// by a start that does not use them: scripts/build.mjs keeps them out of the bundled command line,
// to be required from node_modules when the code that needs them first runs (werift as its ES module
// build). A preloaded hook reports every require of one of them.
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

  it("media loads werift's ES module build, not its CommonJS one (which is several times slower per packet)", async () => {
    running = await startCli(['--clock', 'manual', '--seed', 'on-demand'], { NODE_OPTIONS: `--import ${JSON.stringify(pathToFileURL(HOOK).href)}` });
    const header = /v2 header: Authorization: (Basic \S+)/.exec(running.stdout())![1]!;
    const v2 = async (route: string, body: unknown) =>
      (
        (await (
          await fetch(`${running!.url}${route}`, {
            method: 'POST',
            headers: { authorization: header, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json()) as { data: { id: string } }
      ).data;
    const meeting = await v2('/v2/meetings', { title: 'werift' });
    const bot = await v2(`/v2/meetings/${meeting.id}/participants`, { name: 'Bot', preset_name: 'group_call_host', custom_participant_id: 'bot' });
    // A bot publishing the sample clip loads werift (its RTP classes).
    const joined = await fetch(`${running.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ media: { video: true } }),
    });
    expect(joined.status).toBe(200);
    const health = (await (await fetch(`${running.url}/_emulator/health`)).json()) as { media: { producers: number } };
    expect(health.media.producers).toBe(1);
    const stderr = running.stderr();
    expect(stderr).toContain('on-demand hook active');
    // A require() of werift (its CommonJS build) goes through Module._load, which the hook reports; an import() does not.
    expect(stderr).not.toContain('on-demand package loaded: werift');
  });
});
