// `npm start` as a user runs it, and stops it: the signal sent to npm must stop the emulator,
// not leave it listening behind a gone npm. (The shell npm runs a script in does not pass a
// signal on to its child; the start script runs node with `exec` so that none stands between.)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every process below `pid`, from /proc (Linux), so that the test can see what outlives npm. */
function descendants(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  const children = readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Running, that is: neither gone nor a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether the URL still answers: false once nothing listens there. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_emulator/health`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds, for at most `ms` of real time (a process exits on its own schedule). */
async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let npm: ChildProcess | undefined;
let spawned: number[] = [];
afterEach(() => {
  // Whatever the outcome, nothing this test started keeps running.
  for (const pid of [npm?.pid, ...spawned]) if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
  npm = undefined;
  spawned = [];
});

async function npmStart(): Promise<{ url: string; exited: Promise<number | null> }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMULATOR_') && k !== 'PORT' && k !== 'HOST'));
  // The TLS listener and the RTMP ingest off: their fixed default ports may be another emulator's on this machine.
  npm = spawn('npm', ['start', '--', '--port', '0', '--tls-port', '0', '--rtmp-port', '0', '--rtmps-port', '0', '--log-level', 'warn'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => npm!.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  npm.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    npm!.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before listening:\n${out}\n${err}`)));
  });
  spawned = descendants(npm.pid!);
  return { url, exited };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to npm stops the emulator: the port stops answering and no process is left', async (signal) => {
    const { url, exited } = await npmStart();
    expect(await answers(url)).toBe(true);
    expect(spawned.length).toBeGreaterThan(0);

    npm!.kill(signal);
    await exited;
    expect(await eventually(() => spawned.every((pid) => !alive(pid)), 5_000)).toBe(true);
    expect(await answers(url)).toBe(false);
  });
});
