// How a webhook request leaves the emulator, seen by a receiver on 127.0.0.1 (a network test):
// a POST carrying exactly the headers and body bytes, over one kept-alive connection for
// successive deliveries; https URLs go over TLS (here refused: the receiver's certificate is
// self-signed); a URL that is not http(s), or no URL at all, fails the attempt with the reason.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { selfSignedCredentials } from '../../src/realtime/tls.js';
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

async function receiver(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), remotePort: req.socket.remotePort });
      res.writeHead(204).end();
    });
  });
  return { url: `http://127.0.0.1:${await listen(server)}/hook`, seen };
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

  it('an https URL goes over TLS: a receiver whose certificate is not trusted fails the attempt', async () => {
    const credentials = await selfSignedCredentials(Date.now());
    const port = await listen(createHttpsServer(credentials, (_req, res) => res.writeHead(200).end()));
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
