// The direct reader of the usual JSON body, on a request stream made by hand: what it leaves to
// body-parser, and a body that never arrives whole (cut off by the client, shorter than its
// Content-Length) — a 400 with the same message body-parser's errors become, never a body.
import { PassThrough } from 'node:stream';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../src/core/errors.js';
import { readPlainJson } from '../../src/http/json-body.js';

function request(headers: Record<string, string>): PassThrough & Request {
  const stream = new PassThrough();
  return Object.assign(stream, { headers, socket: { readable: true } }) as unknown as PassThrough & Request;
}

const json = (length: number) => ({ 'content-type': 'application/json', 'content-length': String(length) });

async function failure(p: Promise<void> | undefined): Promise<{ status: number; code: string; message: string }> {
  const err = await p!.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(err)) throw new Error(`expected an API error, got ${String(err)}`);
  return { status: err.status, code: err.code, message: err.message };
}

describe('readPlainJson', () => {
  it('reads a body in chunks, a multi-byte character split between them', async () => {
    const body = Buffer.from('{"title":"日本"}', 'utf8');
    const req = request(json(body.length));
    const reading = readPlainJson(req, 1000)!;
    req.write(body.subarray(0, 12)); // ends inside 日
    req.end(body.subarray(12));
    await reading;
    expect(req.body).toEqual({ title: '日本' });
  });

  it('leaves to body-parser what it does not read as usual', () => {
    expect(readPlainJson(request({ 'content-type': 'application/json; charset="utf-8"', 'content-length': '2' }), 1000)).toBeUndefined();
    expect(readPlainJson(request({ 'content-type': 'application/merge-patch+json', 'content-length': '2' }), 1000)).toBeUndefined();
    expect(readPlainJson(request({ ...json(2), 'content-encoding': 'gzip' }), 1000)).toBeUndefined();
    expect(readPlainJson(request({ ...json(2), 'transfer-encoding': 'chunked' }), 1000)).toBeUndefined();
    expect(readPlainJson(request({ 'content-type': 'application/json' }), 1000)).toBeUndefined();
    // Over the limit: body-parser answers 413 with the limit in its words.
    expect(readPlainJson(request(json(1001)), 1000)).toBeUndefined();
    const encoded = request(json(2));
    encoded.setEncoding('utf8');
    expect(readPlainJson(encoded, 1000)).toBeUndefined();
    // An upgrade request Node hands to the app as a plain one (no upgrade listener): its bytes
    // after the headers are the upgraded protocol's, not a body.
    expect(readPlainJson(Object.assign(request(json(2)), { upgrade: true }), 1000)).toBeUndefined();
  });

  it('leaves no listener on the request once the body is read, or could not be', async () => {
    const events = ['data', 'end', 'error', 'aborted'] as const;
    const before = request(json(2));
    const counts = () => events.map((e) => before.listenerCount(e));
    const untouched = counts();
    const read = readPlainJson(before, 1000)!;
    before.end('{}');
    await read;
    expect(counts()).toEqual(untouched);
    const cut = request(json(10));
    const failing = readPlainJson(cut, 1000)!;
    cut.emit('aborted');
    await failure(failing);
    expect(events.map((e) => cut.listenerCount(e))).toEqual(untouched);
  });

  it('takes a body of exactly the limit', async () => {
    const body = `{"t":"${'x'.repeat(992)}"}`;
    expect(body.length).toBe(1000);
    const req = request(json(1000));
    const reading = readPlainJson(req, 1000)!;
    req.end(body);
    await reading;
    expect((req.body as { t: string }).t).toHaveLength(992);
  });

  it('answers 400 to a body shorter than its Content-Length', async () => {
    const req = request(json(20));
    const reading = readPlainJson(req, 1000);
    req.end('{"title":"a"}');
    expect(await failure(reading)).toEqual({ status: 400, code: 'BAD_REQUEST', message: 'The request body could not be read' });
    expect(req.body).toBeUndefined();
  });

  it('answers 400 to a body the client cut off', async () => {
    const req = request(json(20));
    const reading = readPlainJson(req, 1000);
    req.write('{"title":');
    req.emit('aborted');
    expect(await failure(reading)).toEqual({ status: 400, code: 'BAD_REQUEST', message: 'The request body could not be read' });
    expect(req.listenerCount('data')).toBe(0);
    expect(req.body).toBeUndefined();
  });

  it('answers 400 to a stream that fails', async () => {
    const req = request(json(20));
    const reading = readPlainJson(req, 1000);
    req.destroy(new Error('socket hang up'));
    expect(await failure(reading)).toEqual({ status: 400, code: 'BAD_REQUEST', message: 'The request body could not be read' });
  });

  it('answers 400 to JSON that is not an object or an array, naming where', async () => {
    const req = request(json(3));
    const reading = readPlainJson(req, 1000);
    req.end(' 42');
    expect(await failure(reading)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Request body is not valid JSON at position 1 (line 1, column 2): a body must be a JSON object or array',
    });
  });
});
