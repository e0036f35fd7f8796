// The usual JSON body (application/json, UTF-8, a length) is read without body-parser
// (src/http/json-body.ts); every other is body-parser's. Both must take the same bytes the same
// way: each body below goes to a fresh, identically seeded emulator twice, once as the usual
// body and once with a content type only body-parser reads (the same charset, quoted), and the
// answers and what the journal kept must be the same.
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BASIC, makeTestApp } from '../helpers/test-app.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? utf8(p) : Buffer.from(p))));

const BODIES: Array<[string, Buffer]> = [
  ['an object', utf8('{"title":"a"}')],
  ['a byte order mark first', bytes([0xef, 0xbb, 0xbf], '{"title":"b"}')],
  ['only a byte order mark', bytes([0xef, 0xbb, 0xbf])],
  ['two byte order marks', bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '{"title":"c"}')],
  ['whitespace first', utf8(' \n\t\r{"title":"d"}')],
  ['whitespace only', utf8('  \n ')],
  ['multi-byte characters', utf8('{"title":"é ü 日本 🎥"}')],
  ['bytes that are not UTF-8 in a string', bytes('{"title":"', [0xff, 0xfe, 0xc3, 0x28, 0x80], '"}')],
  ['a sequence cut at the end', bytes('{"title":"x"}', [0xe6, 0x97])],
  ['broken JSON', utf8('{"title": ')],
  ['a bare string', utf8('"just a string"')],
  ['null', utf8('null')],
  ['an array', utf8('[]')],
  ['an array after whitespace', utf8(' \n[1]')],
  ['a value after whitespace', utf8('  42')],
  ['trailing whitespace', utf8('{"title":"e"}\n\n')],
];

async function answer(contentType: string, body: Buffer) {
  const t = makeTestApp();
  const res = await t.api
    .post('/v2/meetings')
    .set('Authorization', BASIC)
    .set('Content-Type', contentType)
    .serialize((b: unknown) => b as string)
    .send(body as unknown as string);
  const journal = t.deps.journal.list().map(({ duration_ms: _ms, ...entry }) => entry);
  return { status: res.status, body: res.body as unknown, journal };
}

describe('request bodies read directly and by body-parser', () => {
  it.each(BODIES)('%s: the same answer and journal entry either way', async (_name, body) => {
    const direct = await answer('application/json', body);
    const parsed = await answer('application/json; charset="utf-8"', body);
    expect(direct).toEqual(parsed);
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'])('%s is read like application/json', async (type) => {
    const body = utf8('{"title":"same"}');
    expect(await answer(type, body)).toEqual(await answer('application/json; charset="utf-8"', body));
  });
});

// A body's framing is the client's choice: a length, chunks (Transfer-Encoding, what a client
// streaming its body sends), or nothing at all for a request without a body. Written byte for
// byte on a socket, as supertest always sends a length.
describe('bodies without a Content-Length', () => {
  async function exchange(head: string, body = ''): Promise<{ status: number; body: { data?: { title?: unknown } } }> {
    const t = makeTestApp();
    const server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`${head}Host: localhost\r\nAuthorization: ${BASIC}\r\nConnection: close\r\n\r\n${body}`));
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      return { status: Number(text.slice(9, 12)), body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { data?: { title?: unknown } } };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('a chunked body is read: the meeting gets its title', async () => {
    const json = '{"title":"Sent in chunks"}';
    const half = json.length >> 1;
    const chunks = `${half.toString(16)}\r\n${json.slice(0, half)}\r\n${(json.length - half).toString(16)}\r\n${json.slice(half)}\r\n0\r\n\r\n`;
    const res = await exchange('POST /v2/meetings HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n', chunks);
    expect(res.status).toBe(201);
    expect(res.body.data?.title).toBe('Sent in chunks');
  });

  it('a POST with no body at all, neither length nor chunks, is a body of no fields', async () => {
    const res = await exchange('POST /v2/meetings HTTP/1.1\r\n');
    expect(res.status).toBe(201);
    // The same meeting as the one an empty object makes, on an emulator seeded alike.
    expect(res).toEqual(await exchange('POST /v2/meetings HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n', '{}'));
  });
});
