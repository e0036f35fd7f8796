// How a webhook request leaves the emulator, seen by a receiver on 127.0.0.1 (a network test):
// a POST carrying exactly the headers and body bytes, over one kept-alive connection for
// successive deliveries (http and https, before and after close()); https URLs go over TLS
// (refused when the receiver's certificate is not trusted); a URL that is not http(s), or no URL
// at all, fails the attempt with the reason. Once an answer is in, no timer of the attempt is left.
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfSignedCredentials, type TlsCredentials } from '../../src/realtime/tls.js';
import { HttpTransport } from '../../src/webhooks/transport.js';

interface Seen {
  method: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number | undefined;
}

const servers: Server[] = [];
const transports: HttpTransport[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const t of transports.splice(0)) t.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

function transport(): HttpTransport {
  const t = new HttpTransport();
  transports.push(t);
  return t;
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** A receiver answering 204 to everything: over TLS with `tls`, else plain HTTP. */
async function receiver(tls?: TlsCredentials): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const onRequest: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), remotePort: req.socket.remotePort });
      res.writeHead(204).end();
    });
  };
  const server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${await listen(server)}/hook`, seen };
}

let credentials: Promise<TlsCredentials> | undefined;
/** A self-signed certificate for the https receivers, made once for the file. */
function tlsCredentials(): Promise<TlsCredentials> {
  credentials ??= selfSignedCredentials(Date.now());
  return credentials;
}

/**
 * Runs `run` with certificate checks off (NODE_TLS_REJECT_UNAUTHORIZED=0, read on every TLS
 * connection), as a user does for a receiver with a self-signed certificate; restored after.
 */
async function trustingAnyCertificate<T>(run: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  }
}

/** Sends three deliveries one after the other; each must be answered 204. */
async function sendThree(t: HttpTransport, url: string): Promise<void> {
  for (const n of [1, 2, 3]) {
    const result = await t.send({ url, headers: {}, body: Buffer.from(`{"n":${n}}`), timeoutMs: 5_000 });
    expect(result).toEqual({ statusCode: 204, error: null });
  }
}

/**
 * Waits until the transport's timers are all gone (setTimeout faked), or gives up after a bound:
 * the answer's end is read on a later turn of the event loop than its status line.
 */
async function timersGone(): Promise<number> {
  for (let turns = 0; turns < 100_000 && vi.getTimerCount() > 0; turns++) await new Promise<void>((resolve) => setImmediate(resolve));
  return vi.getTimerCount();
}

describe('HttpTransport', () => {
  it('POSTs the headers and the exact body bytes, and answers with the status', async () => {
    const rx = await receiver();
    const body = Buffer.from(JSON.stringify({ event: 'meeting.started', title: 'Café ✓' }), 'utf8');
    const result = await transport().send({ url: rx.url, headers: { 'content-type': 'application/json', 'dyte-uuid': 'u-1' }, body, timeoutMs: 5_000 });
    expect(result).toEqual({ statusCode: 204, error: null });
    expect(rx.seen).toHaveLength(1);
    const [got] = rx.seen;
    expect(got!.method).toBe('POST');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['dyte-uuid']).toBe('u-1');
    expect(got!.headers['content-length']).toBe(String(body.length));
    expect(got!.body).toBe(body.toString('utf8'));
  });

  it('keeps the connection alive: successive deliveries to one receiver share a socket', async () => {
    const rx = await receiver();
    const t = transport();
    for (const n of [1, 2, 3]) {
      const result = await t.send({ url: rx.url, headers: {}, body: Buffer.from(`{"n":${n}}`), timeoutMs: 5_000 });
      expect(result.statusCode).toBe(204);
    }
    expect(rx.seen.map((s) => s.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
    expect(new Set(rx.seen.map((s) => s.remotePort)).size).toBe(1);
  });

  it('keeps the connection alive over TLS too: successive deliveries to an https receiver share a socket', async () => {
    const rx = await receiver(await tlsCredentials());
    await trustingAnyCertificate(() => sendThree(transport(), rx.url));
    expect(rx.seen.map((s) => s.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
    expect(new Set(rx.seen.map((s) => s.remotePort)).size).toBe(1);
  });

  // close() frees the sockets (shutdown, a transport swap); a transport used again afterwards
  // sends as before, on kept-alive connections.
  it.each(['http', 'https'])('after close(), deliveries to an %s receiver again share one kept-alive socket', async (scheme) => {
    const rx = await receiver(scheme === 'https' ? await tlsCredentials() : undefined);
    const t = transport();
    await trustingAnyCertificate(async () => {
      await sendThree(t, rx.url);
      t.close();
      await sendThree(t, rx.url);
    });
    expect(rx.seen.map((s) => s.headers.connection)).toEqual(Array(6).fill('keep-alive'));
    const ports = rx.seen.map((s) => s.remotePort);
    // close() ended the first socket: the three deliveries after it share a second one.
    expect(new Set(ports.slice(0, 3)).size).toBe(1);
    expect(new Set(ports.slice(3)).size).toBe(1);
    expect(ports[3]).not.toBe(ports[0]);
  });

  it('an https URL goes over TLS: a receiver whose certificate is not trusted fails the attempt', async () => {
    const port = await listen(createHttpsServer(await tlsCredentials(), (_req, res) => res.writeHead(200).end()));
    const result = await transport().send({ url: `https://127.0.0.1:${port}/hook`, headers: {}, body: Buffer.from('{}'), timeoutMs: 5_000 });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE): /);
  });

  it.each([
    ['ftp://127.0.0.1/hook', 'Unsupported protocol ftp:'],
    ['file:///etc/hosts', 'Unsupported protocol file:'],
    ['not a url', 'Invalid URL not a url'],
  ])('%s fails the attempt without a request: %s', async (url, error) => {
    expect(await transport().send({ url, headers: {}, body: Buffer.from('{}'), timeoutMs: 5_000 })).toEqual({ statusCode: null, error });
  });
});

// The attempt's deadline is a timer of its own: a timer left running keeps a process that has
// nothing else to do alive until the deadline (a minute with --webhook-timeout-ms 60000).
describe('HttpTransport leaves no timer once the answer is over', () => {
  it('an answer read to its end', async () => {
    const rx = await receiver();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const result = await transport().send({ url: rx.url, headers: {}, body: Buffer.from('{}'), timeoutMs: 60_000 });
    expect(result).toEqual({ statusCode: 204, error: null });
    expect(await timersGone()).toBe(0);
  });

  it('an answer whose body the receiver cuts short by closing the connection (the attempt is delivered)', async () => {
    // Complete 200 headers announcing 100 bytes, 10 of them, then the receiver hangs up.
    const sockets: Socket[] = [];
    const server = createNetServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\nonly ten b'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const result = await transport().send({ url, headers: {}, body: Buffer.from('{}'), timeoutMs: 60_000 });
      expect(result).toEqual({ statusCode: 200, error: null });
      expect(await timersGone()).toBe(0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
