// Structured logging (pino): one JSON line per event. Secrets never reach it: request logs
// carry method, path, status and ids only (see http/request-context.ts).
import { pino, type Logger as PinoLogger } from 'pino';
import type { LogLevel } from './config.js';

export type Logger = PinoLogger;

export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers.authorization', '*.authorization', '*.api_key', '*.access_key', '*.secret_key', '*.secret', '*.password', '*.private_key'], censor: '[redacted]' },
    },
    destination ?? pino.destination(2),
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
