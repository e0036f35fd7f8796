// The CLI as a user runs it: a real process, real flags, real signals.
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config.js';
import { runCli, startCli, type RunningCli } from '../helpers/spawn-emulator.js';

let running: RunningCli | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
});

describe('meetings-emulator CLI', () => {
  it('--help prints every option with its env var and default, from the one options table', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    for (const o of OPTIONS) {
      expect(r.stdout).toContain(o.flag);
      expect(r.stdout).toContain(`env ${o.env}; default ${o.defaultText}`);
    }
  });

  it('exits 2 with a hint on an unknown flag', () => {
    const r = runCli(['--prot', '4700']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown option --prot (did you mean --port?)');
  });

  it.each([
    [['--port', 'abc'], {}, '--port must be a whole number, got "abc"'],
    [['--clock', 'sundial'], {}, '--clock must be one of real, manual, got "sundial"'],
    [[], { EMULATOR_CLOCK: 'sundial' }, 'EMULATOR_CLOCK must be one of real, manual, got "sundial"'],
    [['--port', '0', '--fixtures', '/nonexistent/fixtures.json'], {}, 'invalid fixtures: /nonexistent/fixtures.json: cannot be read (ENOENT)'],
  ])('exits 2 with a one-line reason for %j %j', (args, env, reason) => {
    const r = runCli(args, env);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(reason);
  });

  it('starts, prints its URL, clock mode and the Authorization header, answers, and stops promptly on SIGTERM', async () => {
    running = await startCli(['--clock', 'manual', '--seed', 'cli']);
    const out = running.stdout();
    expect(out).toContain('clock: manual, now 2026-01-01T00:00:00.000Z');
    const header = /v2 header: Authorization: (Basic \S+)/.exec(out)![1]!;
    const health = await fetch(`${running.url}/_emulator/health`);
    expect(health.status).toBe(200);
    const created = await fetch(`${running.url}/v2/meetings`, { method: 'POST', headers: { authorization: header, 'content-type': 'application/json' }, body: '{"title":"cli"}' });
    expect(created.status).toBe(201);
    const stopped = await running.stop('SIGTERM');
    running = undefined;
    expect(stopped.code).toBe(0);
    // Wall clock, so a margin: nothing in flight means no grace period, only CPU work that a loaded 2-core machine may make 4× slower; the exact 1 s grace is pinned on fake timers in test/integration/in-process-shutdown.test.ts.
    expect(stopped.ms).toBeLessThan(5_000);
  });
});
