// --state-file across a real restart: write, SIGTERM, start again, read it all back.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, startCli, type RunningCli } from '../helpers/spawn-emulator.js';

const AUTH = `Basic ${Buffer.from('00000000-0000-4000-8000-000000000001:emulator-api-key').toString('base64')}`;
let running: RunningCli | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function call(base: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { id: string; status: string; token: string } } };
}

it('keeps the state across SIGTERM and a restart', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'state-'));
  const file = path.join(dir, 'state.json');
  const args = ['--clock', 'manual', '--state-file', file, '--state-save-interval', '0', '--log-level', 'warn'];

  running = await startCli(args);
  const meeting = (await call(running.url, 'POST', '/v2/meetings', { title: 'persisted' })).body.data;
  const participant = (
    await call(running.url, 'POST', `/v2/meetings/${meeting.id}/participants`, { preset_name: 'group_call_host', custom_participant_id: 'p1' })
  ).body.data;
  const recording = (await call(running.url, 'POST', '/v2/recordings', { meeting_id: meeting.id })).body.data;
  await fetch(`${running.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":3000}' });
  const exported = await (await fetch(`${running.url}/_emulator/state`)).text();
  expect(existsSync(file)).toBe(false);
  const stopped = await running.stop('SIGTERM');
  running = undefined;
  expect(stopped.code).toBe(0);
  expect(readFileSync(file, 'utf8')).toBe(exported);

  running = await startCli(args);
  expect((await call(running.url, 'GET', `/v2/meetings/${meeting.id}`)).body.data).toEqual(meeting);
  expect((await call(running.url, 'GET', `/v2/recordings/${recording.id}`)).body.data.status).toBe('RECORDING');
  // The participant's token still verifies: the signing key was saved too.
  const withToken = await fetch(`${running.url}/v2/recordings/${recording.id}`, { headers: { authorization: `Bearer ${participant.token}` } });
  expect(withToken.status).toBe(200);
  expect(await (await fetch(`${running.url}/_emulator/state`)).text()).toBe(exported);
});

it('refuses to start on a broken state file, with exit code 2 and the reason', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'state-'));
  const file = path.join(dir, 'state.json');
  writeFileSync(file, '{"version": 1, "organizations": "nope"}');
  const r = runCli(['--port', '0', '--state-file', file]);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(`invalid state file: ${file}: `);
});
