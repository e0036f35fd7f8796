// The log's two formats: JSON lines for pipes, readable lines for a terminal ('auto' picks by
// whether the destination is one), both from the same records, both redacted.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, readableLine } from '../../src/logger.js';

function sink(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

describe('log format', () => {
  it.each([
    ['auto', false, 'json'],
    ['auto', true, 'readable'],
    ['json', true, 'json'],
    ['pretty', false, 'readable'],
  ] as const)('%s to a terminal: %s → %s', (format, isTTY, expected) => {
    const { stream, lines } = sink(isTTY);
    createLogger('info', stream, format).info({ reqId: 'req_000001', method: 'GET', path: '/v2/meetings', status: 200, ms: 3, orgId: null }, 'request');
    expect(lines).toHaveLength(1);
    if (expected === 'json') expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request', reqId: 'req_000001', status: 200 });
    else expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}request reqId=req_000001 method=GET path=\/v2\/meetings status=200 ms=3 orgId=null$/);
  });

  it('a readable line quotes values with spaces, shows nested values as JSON, and an error with its stack', () => {
    const line = readableLine(
      JSON.stringify({
        level: 50,
        time: Date.parse('2026-01-01T07:01:02.123Z'),
        msg: 'scheduled job failed',
        job: { key: 'k', kind: 'webhook' },
        note: 'two words',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    );
    expect(line).toBe('07:01:02.123 ERROR scheduled job failed job={"key":"k","kind":"webhook"} note="two words"\n  Error: boom\n      at x\n');
  });

  it('readable lines are redacted as the JSON ones are', () => {
    const { stream, lines } = sink(true);
    createLogger('info', stream, 'auto').info({ storage: { secret_key: 'LOG-SECRET' } }, 'oops');
    expect(lines.join('\n')).not.toContain('LOG-SECRET');
    expect(lines[0]).toContain('[redacted]');
  });
});
