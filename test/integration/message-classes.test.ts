// The listening servers make their requests and responses with the Express app's prototypes from
// the start (src/http/message-classes.ts), so that Express's own Object.setPrototypeOf finds them
// in place and no object changes shape (the bench measured 1.2 to 1.9 times the requests per second
// with it). About real sockets, so it listens.
import { once } from 'node:events';
import { createServer, IncomingMessage, request as httpRequest, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { messageClasses } from '../../src/http/message-classes.js';
import { createTlsListener, TlsIdentity } from '../../src/realtime/tls.js';
import { silentLogger } from '../../src/logger.js';
import { listenEmulator } from '../../src/runtime.js';
import { BASIC } from '../helpers/test-app.js';

interface Seen {
  /** The prototypes as the server made the objects, before any app code ran. */
  madeReq: object | null;
  madeRes: object | null;
  /** The prototypes once the response finished: what Express set, if it set any. */
  endReq: object | null;
  endRes: object | null;
}

/** Records, for every request a server gets, its objects' prototypes when made and when answered. */
function watch(server: { prependListener(event: 'request', l: (req: IncomingMessage, res: ServerResponse) => void): unknown }): Seen[] {
  const seen: Seen[] = [];
  server.prependListener('request', (req, res) => {
    const s: Seen = { madeReq: Object.getPrototypeOf(req) as object, madeRes: Object.getPrototypeOf(res) as object, endReq: null, endRes: null };
    seen.push(s);
    res.on('finish', () => {
      s.endReq = Object.getPrototypeOf(req) as object;
      s.endRes = Object.getPrototypeOf(res) as object;
    });
  });
  return seen;
}

/** One request with a JSON body; the answer's status and body. */
function exchange(
  send: typeof httpRequest,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  extra: object = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, agent: false, ...extra }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the request and response classes of the listening servers', () => {
  it("the emulator's requests and responses are made with the app's prototypes, which Express then leaves as they are", async () => {
    const emulator = await listenEmulator(defaultConfig({ host: '127.0.0.1', port: 0, tlsPort: null, rtmpPort: null, rtmpsPort: null, clock: 'manual' }), {
      logger: silentLogger(),
    });
    onTestFinished(() => emulator.close());
    const seen = watch(emulator.server);

    const created = await exchange(
      httpRequest,
      `${emulator.url}/v2/meetings`,
      'POST',
      { authorization: BASIC, 'content-type': 'application/json' },
      '{"title":"Shapes"}',
    );
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { data: { id: string; title: string } }).data.id;
    const read = await exchange(httpRequest, `${emulator.url}/v2/meetings/${id}`, 'GET', { authorization: BASIC });
    expect(read.status).toBe(200);
    expect((JSON.parse(read.body) as { data: { title: string } }).data.title).toBe('Shapes');

    expect(seen).toHaveLength(2);
    for (const s of seen) {
      // Express's request and response, not node:http's own...
      expect(s.madeReq).not.toBe(IncomingMessage.prototype);
      expect(s.madeRes).not.toBe(ServerResponse.prototype);
      expect(typeof (s.madeReq as { get?: unknown }).get).toBe('function');
      expect(typeof (s.madeRes as { json?: unknown }).json).toBe('function');
      // ...and exactly the ones Express gives them.
      expect(s.endReq).toBe(s.madeReq);
      expect(s.endRes).toBe(s.madeRes);
    }
    // One prototype for every request, and one for every response: one shape.
    expect(seen[1]!.madeReq).toBe(seen[0]!.madeReq);
    expect(seen[1]!.madeRes).toBe(seen[0]!.madeRes);
  });

  it('until the app exists, a server with these classes makes node:http objects, and after it the ones it was given', async () => {
    const classes = messageClasses();
    const server = createServer(classes.options, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(`${req.method} ${req.url} ${Buffer.concat(chunks).toString('utf8')}`));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const seen = watch(server);

    expect(await exchange(httpRequest, url, 'POST', {}, 'before')).toEqual({ status: 200, body: 'POST /x before' });
    const request = Object.create(IncomingMessage.prototype) as object;
    const response = Object.create(ServerResponse.prototype) as object;
    classes.adopt({ request, response });
    expect(await exchange(httpRequest, url, 'POST', {}, 'after')).toEqual({ status: 200, body: 'POST /x after' });

    expect(seen).toHaveLength(2);
    expect(seen[0]!.madeReq).toBe(IncomingMessage.prototype);
    expect(seen[0]!.madeRes).toBe(ServerResponse.prototype);
    expect(seen[1]!.madeReq).toBe(request);
    expect(seen[1]!.madeRes).toBe(response);
  });

  it('classes that cannot be called on an object of their own (ES classes) are kept as they are, and Express sets the prototypes', async () => {
    class Incoming extends IncomingMessage {}
    // Typed as node:http's: the generic signature of ServerResponse is not a subclass's.
    const Outgoing = class extends ServerResponse {} as typeof ServerResponse;
    for (const base of [
      { IncomingMessage: Incoming, ServerResponse },
      { IncomingMessage, ServerResponse: Outgoing },
    ]) {
      const classes = messageClasses(base);
      expect(classes.options.IncomingMessage).toBe(base.IncomingMessage);
      expect(classes.options.ServerResponse).toBe(base.ServerResponse);
    }
    // Plain functions (node:http's own) are wrapped.
    const wrapped = messageClasses();
    expect(wrapped.options.IncomingMessage).not.toBe(IncomingMessage);
    expect(wrapped.options.ServerResponse).not.toBe(ServerResponse);
    // The kept ones serve, and adopt() changes nothing of theirs.
    const kept = messageClasses({ IncomingMessage: Incoming, ServerResponse: Outgoing });
    kept.adopt({ request: Object.create(IncomingMessage.prototype) as object, response: Object.create(ServerResponse.prototype) as object });
    const server = createServer(kept.options, (_req, res) => res.end('kept'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const seen = watch(server);
    expect(await exchange(httpRequest, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 'GET', {})).toEqual({ status: 200, body: 'kept' });
    expect(seen[0]!.madeReq).toBe(Incoming.prototype);
    expect(seen[0]!.madeRes).toBe(Outgoing.prototype);
  });

  it('the TLS listener makes its objects with the same classes', async () => {
    const classes = messageClasses();
    const request = Object.create(IncomingMessage.prototype) as object;
    const response = Object.create(ServerResponse.prototype) as object;
    classes.adopt({ request, response });
    const errors: unknown[] = [];
    const tls = createTlsListener(new TlsIdentity(undefined), (err) => errors.push(err), classes.options);
    const seen = watch(tls.server);
    tls.server.on('request', (_req: IncomingMessage, res: ServerResponse) => res.end('over TLS'));
    tls.listener.listen(0, '127.0.0.1');
    await once(tls.listener, 'listening');
    onTestFinished(() => new Promise<void>((resolve) => tls.listener.close(() => resolve())));
    const url = `https://127.0.0.1:${(tls.listener.address() as AddressInfo).port}/`;

    expect(await exchange(httpsRequest, url, 'GET', {}, undefined, { rejectUnauthorized: false })).toEqual({ status: 200, body: 'over TLS' });
    expect(errors).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.madeReq).toBe(request);
    expect(seen[0]!.madeRes).toBe(response);
  });
});
