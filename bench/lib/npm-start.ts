// `npm start` as a user runs it a second time (the package already built): spawn → the line with
// the URL on stdout, then SIGTERM to npm and the wait until npm has exited. The first start is a
// warm-up and is not counted: it may bundle after a change to src/, as a first start does.
import { spawn } from 'node:child_process';
import { NO_FIXED_PORTS, ROOT, hrMs } from './servers.js';

export interface NpmStartResult {
  command: string;
  /** Spawn → the "listening on" line, ms, one per counted start. */
  urlMs: number[];
}

const COMMAND = ['start', '--', '--port', '0', ...NO_FIXED_PORTS];
const TIMEOUT_MS = 60_000;

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = hrMs();
    const child = spawn('npm', COMMAND, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let urlAt: number | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm start printed no URL within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (urlAt === undefined && /listening on http/.test(out)) {
        urlAt = hrMs() - started;
        child.kill('SIGTERM');
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (urlAt === undefined) reject(new Error(`npm start exited before printing its URL: ${out.slice(0, 500)}`));
      else resolve(urlAt);
    });
  });
}

export async function measureNpmStart(starts: number): Promise<NpmStartResult> {
  await once();
  const urlMs: number[] = [];
  for (let i = 0; i < starts; i++) urlMs.push(await once());
  return { command: `npm ${COMMAND.join(' ')}`, urlMs };
}
