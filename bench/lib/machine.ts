// What the numbers were measured on: written at the top of RESULTS.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { ROOT } from './servers.js';

export interface Machine {
  date: string;
  nproc: number;
  cpu: string;
  free: string;
  node: string;
  os: string;
  git: string;
  loadBefore: number[];
  loadAfter?: number[];
}

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unavailable';
  }
}

export function machine(): Machine {
  const head = run('git', ['rev-parse', '--short', 'HEAD']);
  const dirty = run('git', ['status', '--porcelain']).split('\n').filter(Boolean).length;
  return {
    date: new Date().toISOString(),
    nproc: Number(run('nproc', [])) || os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    free: run('free', ['-h']),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    git: `${head}${dirty > 0 ? ` + ${dirty} uncommitted changes in the working tree` : ''}`,
    loadBefore: os.loadavg(),
  };
}
