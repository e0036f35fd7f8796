// Servers under test, each a child process of its own (one core for the server; the load
// generator runs in the bench process): the emulator's bin, the bare node:http ceiling, Prism,
// and the in-process host used for growth. Every child is tracked and killed on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The bundled command line, as the package's bin and the image run it (scripts/build.mjs).
export const EMULATOR_BIN = path.join(ROOT, 'dist', 'bin', 'meetings-emulator.js');
export const CEILING = path.join(ROOT, 'bench', 'ceiling-server.mjs');
export const EXPRESS_NAIVE = path.join(ROOT, 'bench', 'express-naive.mjs');
export const HOST = path.join(ROOT, 'bench', 'emulator-host.mjs');
/**
 * The emulator's flags that turn off its listeners on fixed default ports (the web SDK's TLS listener,
 * the RTMP and RTMPS ingest): a second emulator of the run, or another emulator on the machine, may
 * hold those ports, and the benches do not measure them.
 */
export const NO_FIXED_PORTS = ['--tls-port', '0', '--rtmp-port', '0', '--rtmps-port', '0'] as const;
export const PRISM_BIN = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export const ORG_ID = '00000000-0000-4000-8000-000000000001';
export const API_KEY = 'emulator-api-key';
export const AUTH = `Basic ${Buffer.from(`${ORG_ID}:${API_KEY}`).toString('base64')}`;

const children = new Set<ChildProcess>();
let exiting = false;
function killAll(): void {
  exiting = true;
  for (const c of children) if (c.exitCode === null && c.pid !== undefined) c.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export function hrMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Resident set size of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

export function getStatus(url: string, timeoutMs = 1_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

export interface Running {
  name: string;
  url: string;
  pid: number;
  /** Spawn → first 200 from the health URL, ms. */
  startupMs: number;
  /** The line the child printed when ready (READY {...} for the host). */
  readyLine: string | undefined;
  rss(): number;
  stop(): Promise<void>;
}

export interface SpawnSpec {
  name: string;
  args: string[];
  nodeArgs?: string[];
  /**
   * The stdout line that says the child is ready; group 1 is its base URL, or JSON carrying
   * `url`. Reading the port from the child (port 0, or the port it confirms it bound) means a
   * health check can never reach another process that happens to hold a port we guessed.
   */
  ready?: RegExp;
  /** Instead of `ready`: the port the child was told to use; it must be the child's own listener. */
  port?: number;
  healthPath?: string;
  timeoutMs?: number;
  /** Called with every whole line the child writes to stderr. */
  onStderr?: (line: string) => void;
}

/** Whether `pid` holds the listening socket on `port` (Linux /proc): not some other process. */
export function listensOn(pid: number, port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f.length > 9 && f[1]!.endsWith(`:${hex}`) && f[3] === '0A') inodes.add(f[9]!);
    }
  }
  if (inodes.size === 0) return false;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1]!)) return true;
    }
  } catch {
    return false;
  }
  return false;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export async function startProcess(spec: SpawnSpec): Promise<Running> {
  const started = hrMs();
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), ...spec.args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  let readyLine: string | undefined;
  let onReadyLine: ((line: string) => void) | undefined;
  let buffered = '';
  let stopping = false;
  // Both pipes are always drained: a full pipe would stall the server under test.
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-4000);
    if (readyLine || !spec.ready) return;
    // Whole lines only: a long RESULT line can arrive in several chunks.
    const lines = (buffered + text).split('\n');
    buffered = lines.pop()!;
    for (const raw of lines) {
      const line = raw.replace(ANSI, '');
      if (!readyLine && spec.ready.test(line)) {
        readyLine = line;
        onReadyLine?.(line);
      }
    }
  });
  let stderrBuffered = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-4000);
    if (!spec.onStderr) return;
    const lines = (stderrBuffered + text).split('\n');
    stderrBuffered = lines.pop()!;
    for (const line of lines) spec.onStderr(line);
  });
  // 'close', not 'exit': it comes after the child's output has been read to the end.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code, signal) => {
      if (!stopping && !exiting && readyLine) process.stderr.write(`[bench] ${spec.name} exited unexpectedly (${code ?? signal})\n${output}\n`);
      resolve(code);
    }),
  );
  const timeoutMs = spec.timeoutMs ?? 30_000;
  const fail = (why: string) => {
    child.kill('SIGKILL');
    return new Error(`${spec.name}: ${why}\n--- output ---\n${output}`);
  };

  let url: string;
  if (spec.ready) {
    let timer: NodeJS.Timeout | undefined;
    const line = await new Promise<string>((resolve, reject) => {
      onReadyLine = resolve;
      if (readyLine) resolve(readyLine);
      void exited.then((code) => {
        if (!readyLine) reject(fail(`exited (${code}) before it was ready`));
      });
      timer = setTimeout(() => reject(fail(`not ready within ${timeoutMs} ms`)), timeoutMs);
    }).finally(() => clearTimeout(timer));
    const found = spec.ready.exec(line)![1]!.trim();
    url = found.startsWith('{') ? (JSON.parse(found) as { url: string }).url : found.replace(/\/+$/, '');
  } else {
    url = `http://127.0.0.1:${spec.port}`;
    readyLine = '';
  }

  let startupMs = hrMs() - started;
  if (spec.healthPath) {
    // Ready means listening; the first 200 from the health route is the moment that counts.
    for (;;) {
      if (child.exitCode !== null) throw fail(`exited (${child.exitCode}) during start-up`);
      if (hrMs() - started > timeoutMs) throw fail(`no 200 from ${spec.healthPath} within ${timeoutMs} ms`);
      const ours = spec.port === undefined || listensOn(child.pid!, spec.port);
      const status = ours ? await getStatus(`${url}${spec.healthPath}`).catch(() => 0) : 0;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    startupMs = hrMs() - started;
  }

  return {
    name: spec.name,
    url,
    pid: child.pid!,
    startupMs,
    readyLine,
    rss: () => rssOf(child.pid!),
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(t);
      }
      children.delete(child);
    },
  };
}

/** prism: Prism without its per-request log lines (its best case); prism-default: as a user starts it. */
export type ServerKind = 'emulator' | 'baseline' | 'ceiling' | 'express' | 'prism' | 'prism-default';

/** `--baseline REF`: another build of the emulator (dist/ of REF), measured alongside. */
export const baseline: { ref?: string; dir?: string } = {};

export interface ServerOptions {
  /** Extra emulator flags, e.g. ['--journal-size', '0']. */
  flags?: string[];
  nodeArgs?: string[];
  /** Prism: the OpenAPI document to mock. */
  document?: string;
}

/** The command line of each server, as run (also printed into RESULTS.md). */
export function commandOf(kind: ServerKind, port: number | string, opts: ServerOptions = {}): { args: string[]; display: string } {
  switch (kind) {
    case 'emulator': {
      const args = [EMULATOR_BIN, '--port', String(port), ...NO_FIXED_PORTS, '--log-level', 'warn', ...(opts.flags ?? [])];
      return { args, display: `node ${[...(opts.nodeArgs ?? []), 'dist/bin/meetings-emulator.js', ...args.slice(1)].join(' ')}` };
    }
    case 'ceiling': {
      const args = [CEILING, '--port', String(port)];
      return { args, display: `node bench/ceiling-server.mjs --port ${port}` };
    }
    case 'baseline': {
      // Its bin when it was bundled (as the emulator's side runs), else its compiled command line. No
      // listener on a fixed port (TLS, RTMP): the emulator's side holds those while both run.
      const bin = path.join(baseline.dir ?? '<baseline>', 'dist', 'bin', 'meetings-emulator.js');
      const entry = existsSync(bin) ? bin : path.join(baseline.dir ?? '<baseline>', 'dist', 'src', 'server.js');
      const args = [entry, '--port', String(port), ...NO_FIXED_PORTS, '--log-level', 'warn', ...(opts.flags ?? [])];
      return { args, display: `node <${baseline.ref ?? 'baseline'}>/${path.relative(baseline.dir ?? '', entry)} ${args.slice(1).join(' ')}` };
    }
    case 'express': {
      const args = [EXPRESS_NAIVE, '--port', String(port)];
      return { args, display: `node bench/express-naive.mjs --port ${port}` };
    }
    case 'prism':
    case 'prism-default': {
      const doc = opts.document ?? 'openapi.json';
      // Static examples (Prism's default). -v warn: no log line per request (its best case).
      const quiet = kind === 'prism' ? ['-v', 'warn'] : [];
      const args = [PRISM_BIN, 'mock', '-h', '127.0.0.1', '-p', String(port), ...quiet, doc];
      return { args, display: `npx prism mock -h 127.0.0.1 -p ${port}${quiet.length ? ' -v warn' : ''} <the emulator's /_emulator/openapi.json>` };
    }
  }
}

const READY: Record<'emulator' | 'baseline' | 'ceiling' | 'express', RegExp> = {
  emulator: /meetings-emulator listening on (http:\/\/\S+)/,
  baseline: /meetings-emulator listening on (http:\/\/\S+)/,
  ceiling: /^listening on (http:\/\/\S+)/,
  express: /^listening on (http:\/\/\S+)/,
};

export async function startServer(kind: ServerKind, opts: ServerOptions = {}): Promise<Running> {
  const prism = kind.startsWith('prism');
  // Prism cannot be told port 0 (and with -v warn prints no "listening" line): it gets a free
  // port, is polled only once it holds that port itself, and is retried if another took it.
  for (let attempt = 1; ; attempt++) {
    const port = prism ? await freePort() : 0;
    const { args } = commandOf(kind, port, opts);
    try {
      const how = kind === 'prism' || kind === 'prism-default' ? { port } : { ready: READY[kind] };
      return await startProcess({ name: kind, args, nodeArgs: opts.nodeArgs, ...how, healthPath: '/_emulator/health', timeoutMs: prism ? 60_000 : 30_000 });
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
    }
  }
}

/** The in-process host (bench/emulator-host.mjs serve) holding `meetings` meetings. */
export async function startHost(meetings: number): Promise<Running & { info: { sampleId: string; newestId: string; authHeader: string } }> {
  const running = await startProcess({
    name: `host(${meetings})`,
    args: [HOST, 'serve', '--meetings', String(meetings)],
    ready: /^READY (.*)$/,
    healthPath: '/_emulator/health',
    timeoutMs: 120_000,
  });
  const info = JSON.parse(running.readyLine!.slice('READY '.length)) as { sampleId: string; newestId: string; authHeader: string };
  return { ...running, info };
}

/** Runs a child to completion and returns the JSON after its `RESULT ` line. */
export async function runForResult<T>(name: string, nodeArgs: string[], args: string[], timeoutMs = 240_000): Promise<T> {
  const running = await startProcess({ name, nodeArgs, args, ready: /^RESULT ()/, timeoutMs });
  await running.stop();
  return JSON.parse(running.readyLine!.slice('RESULT '.length)) as T;
}

/** JSON request helper for setting servers up (not for measuring). */
export async function request<T = unknown>(
  base: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T };
}
