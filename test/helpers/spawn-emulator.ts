// Runs the real CLI as a child process, the bundled file that the bin and the image run (the
// test run's global setup, test/setup/bundles.ts, makes it up to date with src/ first): for the
// tests about the process itself (flags, exit codes, signals, the state file).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'bin', 'meetings-emulator.js');

/**
 * A clean environment: none of the EMULATOR_* variables of the machine running the tests. The
 * TLS listener and the RTMP ingest are off unless a test turns them on: their default ports are
 * fixed (4443, 1935, 1936), and test files run side by side, next to an emulator a developer may
 * have running.
 */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMULATOR_') && k !== 'PORT' && k !== 'HOST'));
  return { ...base, EMULATOR_TLS_PORT: '0', EMULATOR_RTMP_PORT: '0', EMULATOR_RTMPS_PORT: '0', ...extra };
}

export function runCli(args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], { cwd: ROOT, env: env(extraEnv), encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface RunningCli {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends a signal and resolves with the exit code and how long the exit took (real ms). */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

export function startCli(args: string[], extraEnv: Record<string, string> = {}): Promise<RunningCli> {
  const child = spawn(process.execPath, [BUNDLE, '--port', '0', ...args], { cwd: ROOT, env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      resolve({
        child,
        url: m[1]!,
        stdout: () => out,
        stderr: () => err,
        async stop(signal: NodeJS.Signals = 'SIGTERM') {
          const t0 = performance.now();
          if (child.exitCode === null) child.kill(signal);
          const code = await exited;
          return { code, ms: performance.now() - t0 };
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`emulator exited (${code}) before listening:\n${out}\n${err}`)));
  });
}
