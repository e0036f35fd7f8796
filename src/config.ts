// One options table feeds the command-line flags, the environment variables, the defaults and
// `--help`. parseConfig turns argv + env into a frozen, typed Config or a one-line reason.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}`) ? '..' : '.');
export const DEFAULT_FIXTURES = path.join(PACKAGE_ROOT, 'fixtures', 'default.json');

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  fixtures: string;
  clock: 'real' | 'manual';
  startTime: number | undefined;
  timeScale: number;
  seed: string | undefined;
  publicUrl: string;
  logLevel: LogLevel;
}

type Key = keyof Config;

interface Option<K extends Key> {
  key: K;
  flag: string;
  env: string;
  /** Shown in --help; `undefined` means "unset". */
  defaultText: string;
  description: string;
  /** Parses the raw string; throws Error with a reason on a bad value. */
  parse(raw: string): Config[K];
}

class ConfigError extends Error {}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new ConfigError(`must be a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

function isoTime(raw: string): number {
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(ms)) throw new ConfigError(`must be an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${raw}"`);
  return ms;
}

function httpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T => {
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

function nonEmpty(raw: string): string {
  if (raw.length === 0) throw new ConfigError('must not be empty');
  return raw;
}

function positiveNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) throw new ConfigError(`must be a positive number, got "${raw}"`);
  return n;
}

export const OPTIONS: { [K in Key]: Option<K> }[Key][] = [
  { key: 'port', flag: '--port', env: 'PORT', defaultText: '4700', description: 'Port to listen on (0 picks a free port).', parse: int(0, 65535) },
  { key: 'host', flag: '--host', env: 'HOST', defaultText: '127.0.0.1', description: 'Interface to listen on (0.0.0.0 in a container).', parse: nonEmpty },
  { key: 'fixtures', flag: '--fixtures', env: 'EMULATOR_FIXTURES', defaultText: 'fixtures/default.json (bundled)', description: 'Fixtures file: organizations, presets, categories, sample data.', parse: nonEmpty },
  { key: 'clock', flag: '--clock', env: 'EMULATOR_CLOCK', defaultText: 'real', description: 'real: time flows; manual: time moves only through /_emulator/clock.', parse: oneOf(['real', 'manual'] as const) },
  { key: 'startTime', flag: '--start-time', env: 'EMULATOR_START_TIME', defaultText: 'now (real) / 2026-01-01T00:00:00.000Z (manual)', description: 'ISO time the emulated clock starts at.', parse: isoTime },
  { key: 'timeScale', flag: '--time-scale', env: 'EMULATOR_TIME_SCALE', defaultText: '1', description: 'Real clock only: emulated ms per real ms (60 = a real second is an emulated minute).', parse: positiveNumber },
  { key: 'seed', flag: '--seed', env: 'EMULATOR_SEED', defaultText: 'unset (random)', description: 'Makes every generated id, key and token reproducible.', parse: nonEmpty },
  { key: 'publicUrl', flag: '--public-url', env: 'EMULATOR_PUBLIC_URL', defaultText: 'http://<host>:<port>', description: 'Base of every URL the emulator hands out (download, playback).', parse: httpUrl },
  { key: 'logLevel', flag: '--log-level', env: 'EMULATOR_LOG_LEVEL', defaultText: 'info', description: `One of ${LOG_LEVELS.join(', ')}.`, parse: oneOf(LOG_LEVELS) },
];

export const DEFAULT_MANUAL_START = Date.parse('2026-01-01T00:00:00.000Z');

export type ParseResult = { ok: true; config: Config } | { ok: false; reason: string } | { ok: true; help: true };

/** Defaults for everything; used by the in-process API and tests, which pass overrides. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const base: Config = {
    port: 4700,
    host: '127.0.0.1',
    fixtures: DEFAULT_FIXTURES,
    clock: 'real',
    startTime: undefined,
    timeScale: 1,
    seed: undefined,
    publicUrl: '',
    logLevel: 'info',
    ...overrides,
  };
  if (!base.publicUrl) base.publicUrl = `http://${base.host === '0.0.0.0' ? 'localhost' : base.host}:${base.port}`;
  return Object.freeze(base);
}

/** Flags win over env vars, env vars over defaults. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ParseResult {
  const raw = new Map<Key, { value: string; source: string }>();
  for (const opt of OPTIONS) {
    const v = env[opt.env];
    if (v !== undefined && v !== '') raw.set(opt.key, { value: v, source: opt.env });
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { ok: true, help: true };
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const opt = OPTIONS.find((o) => o.flag === flag);
    if (!opt) {
      const close = OPTIONS.find((o) => o.flag.startsWith(flag.slice(0, 4)) && flag.startsWith('--'));
      return { ok: false, reason: `unknown option ${arg}${close ? ` (did you mean ${close.flag}?)` : ''}; see --help` };
    }
    const value = inline ?? argv[++i];
    if (value === undefined) return { ok: false, reason: `${flag} needs a value; see --help` };
    raw.set(opt.key, { value, source: flag });
  }
  const parsed: Partial<Config> = {};
  for (const opt of OPTIONS) {
    const r = raw.get(opt.key);
    if (!r) continue;
    try {
      (parsed as Record<string, unknown>)[opt.key] = opt.parse(r.value);
    } catch (err) {
      return { ok: false, reason: `${r.source} ${(err as Error).message}` };
    }
  }
  if (parsed.clock === 'manual' && parsed.startTime === undefined) parsed.startTime = DEFAULT_MANUAL_START;
  return { ok: true, config: defaultConfig(parsed) };
}

export function helpText(): string {
  const rows = OPTIONS.map((o) => `  ${`${o.flag} <value>`.padEnd(26)} ${o.description}\n  ${''.padEnd(26)} env ${o.env}; default ${o.defaultText}`);
  return [
    'meetings-emulator: a local emulator of the meetings (v2) and product registry (v1) APIs.',
    '',
    'Usage: meetings-emulator [options]',
    '',
    'Options (flags win over environment variables):',
    ...rows,
    `  ${'--help'.padEnd(26)} Print this help.`,
    '',
  ].join('\n');
}
