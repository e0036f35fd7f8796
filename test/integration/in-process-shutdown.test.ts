// startEmulator().close() shuts down as the command line does on SIGTERM: a webhook attempt in
// flight is cut off and recorded as interrupted (pending, retried later), not lost, and the state
// file is saved with it. The network is real (127.0.0.1, port 0): a receiver that never answers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { INTERRUPTED_ERROR } from '../helpers/documented.js';
import { Receiver } from '../helpers/webhook-receiver.js';

let emu: RunningEmulator | undefined;
let receiver: Receiver | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  await receiver?.close();
  receiver = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function post(path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${emu!.url}${path}`, {
    method: 'POST',
    headers: { authorization: emu!.authHeader, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: string } }).data;
}

it('close() records a webhook attempt in flight as interrupted, keeps its delivery pending and saves it to the state file', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'in-process-shutdown-'));
  const stateFile = path.join(dir, 'state.json');
  receiver = await Receiver.start(() => 'hang');
  emu = await startEmulator({ seed: 'in-process-shutdown', stateFile, stateSaveInterval: 0, webhookTimeoutMs: 60_000 });
  await post('/v2/webhooks', { name: 'held', url: receiver.url(), events: ['recording.statusUpdate'] });
  const meeting = await post('/v2/meetings', { title: 'm' });
  await post('/v2/recordings', { meeting_id: meeting.id });
  await receiver.waitFor(1);

  await emu.close();

  const [delivery, ...others] = emu.deps.webhooks.outbox.list({}).items;
  expect(others).toEqual([]);
  expect(delivery).toMatchObject({ status: 'pending', attempts: [{ statusCode: null, error: INTERRUPTED_ERROR, trigger: 'initial' }] });
  expect(delivery!.nextAttemptAt).not.toBeNull();
  expect(receiver.received.map((r) => r.headers['dyte-uuid'])).toEqual([delivery!.id]);
  const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as {
    runtime: { deliveries: Array<{ id: string; status: string; attempts: Array<{ error: string | null }> }> };
  };
  expect(saved.runtime.deliveries).toEqual([
    expect.objectContaining({ id: delivery!.id, status: 'pending', attempts: [expect.objectContaining({ error: INTERRUPTED_ERROR })] }),
  ]);
});

it('close() can be called twice', async () => {
  emu = await startEmulator();
  await Promise.all([emu.close(), emu.close()]);
  await expect(fetch(`${emu.url}/_emulator/health`)).rejects.toThrow();
});

it('close() with a receiver that never answers takes the documented 1 s grace, not the webhook timeout (fake timers: exact on any machine)', async () => {
  receiver = await Receiver.start(() => 'hang');
  emu = await startEmulator({ seed: 'in-process-shutdown', webhookTimeoutMs: 60_000 });
  await post('/v2/webhooks', { name: 'held', url: receiver.url(), events: ['recording.statusUpdate'] });
  await post('/v2/recordings', { meeting_id: (await post('/v2/meetings', { title: 'm' })).id });
  await receiver.waitFor(1);
  // The grace periods are real-time timers: faked, the deadline is exact however loaded the machine.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    let closed = false;
    const closing = emu.close().then(() => (closed = true));
    const turns = async () => {
      for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    await turns();
    vi.advanceTimersByTime(999);
    await turns();
    expect(closed).toBe(false);
    expect(emu.deps.webhooks.outbox.list({}).items[0]!.attempts).toEqual([]);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(closed).toBe(true), { interval: 1 });
    await closing;
    const [delivery] = emu.deps.webhooks.outbox.list({}).items;
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ statusCode: null, error: INTERRUPTED_ERROR }] });
    // started on real time a moment before the timers were faked: at least the grace
    expect(delivery!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(1_000);
  } finally {
    vi.useRealTimers();
  }
});
