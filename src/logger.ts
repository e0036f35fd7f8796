// Structured logging (pino). Secrets never reach it: request logs carry method, path, status and
// ids only (see http/request-context.ts), and the redaction below catches a secret passed by
// mistake. Two formats of the same records: one JSON line per event for pipes and log
// collectors, and a readable line for a person at a terminal.
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { pino, type Logger as PinoLogger } from 'pino';
import type { LogFormat, LogLevel } from './config.js';

export type Logger = PinoLogger;

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A field's value as it reads in a line: bare when it is one plain word, else as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string' && /^[^\s"=]+$/.test(value)) return value;
  return JSON.stringify(value);
}

/**
 * One JSON record as a line for a person: time (UTC, as the JSON's), level, message, then the
 * other fields as key=value, and an error's stack below it.
 *   07:01:02.123 INFO  request reqId=req_000001 method=GET path=/v2/meetings status=200 ms=3 orgId=…
 */
export function readableLine(json: string): string {
  const { level, time, msg, err, ...fields } = JSON.parse(json) as { level: number; time: number; msg?: string; err?: { stack?: string } } & Record<
    string,
    unknown
  >;
  const head = [new Date(time).toISOString().slice(11, 23), (LEVEL_NAMES[level] ?? String(level)).padEnd(5), msg ?? ''].join(' ');
  const rest = Object.entries(fields).map(([k, v]) => `${k}=${fieldValue(v)}`);
  const stack = err?.stack ? `\n  ${err.stack.split('\n').join('\n  ')}` : err ? ` err=${fieldValue(err)}` : '';
  return `${[head, ...rest].join(' ')}${stack}\n`;
}

/** A destination for pino that writes readable lines (synchronously: a terminal reads at human speed). */
function readableDestination(destination: NodeJS.WritableStream | undefined) {
  return {
    write(json: string) {
      const line = readableLine(json);
      if (destination) destination.write(line);
      else writeSync(2, line);
    },
  };
}

/**
 * Logs to `destination`, stderr by default. `format` 'auto' means readable lines when the
 * destination is a terminal and JSON lines otherwise.
 */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream, format: LogFormat = 'auto'): Logger {
  const toTerminal = destination ? (destination as { isTTY?: boolean }).isTTY === true : isatty(2);
  const readable = format === 'pretty' || (format === 'auto' && toTerminal);
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['req.headers.authorization', '*.authorization', '*.api_key', '*.access_key', '*.secret_key', '*.secret', '*.password', '*.private_key'],
        censor: '[redacted]',
      },
    },
    readable ? readableDestination(destination) : (destination ?? pino.destination(2)),
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
