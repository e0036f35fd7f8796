// What HttpTransport tells the outbox about a request cut off by close() (shutdown): whether the
// request had left the emulator. Only one that had can count as an attempt the receiver got.
// On loopback, with real sockets: a receiver that reads the request and never answers, and one
// that never reads, with a body far larger than the sockets' buffers so it cannot be written.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../src/webhooks/transport.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

/** A TCP receiver that never answers; `read` decides whether it reads what it is sent. */
async function silentReceiver(read: boolean) {
  let received = 0;
  let connected!: () => void;
  const connection = new Promise<void>((resolve) => (connected = resolve));
  const server = createServer((socket) => {
    sockets.push(socket);
    if (read) socket.on('data', (chunk: Buffer) => (received += chunk.length));
    else socket.pause();
    connected();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, connection, received: () => received };
}

describe('HttpTransport.close() while a request is in flight', () => {
  it('a request that was written: sent, an answer never came', async () => {
    const receiver = await silentReceiver(true);
    const transport = new HttpTransport();
    const body = Buffer.from('{"event":"recording.statusUpdate"}');
    const result = transport.send({ url: receiver.url, headers: { 'content-type': 'application/json' }, body, timeoutMs: 60_000 });
    await receiver.connection;
    // Wait until the receiver holds the whole body: then the request has certainly been written.
    while (receiver.received() < body.length) await new Promise<void>((resolve) => setImmediate(resolve));
    transport.close();
    const r = await result;
    expect(r.statusCode).toBeNull();
    expect(r.sent).toBe(true);
  });

  it('a request that could not be written (the receiver reads nothing of 64 MiB): not sent', async () => {
    const receiver = await silentReceiver(false);
    const transport = new HttpTransport();
    const result = transport.send({
      url: receiver.url,
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(64 * 1024 * 1024, 0x20),
      timeoutMs: 60_000,
    });
    await receiver.connection;
    transport.close();
    const r = await result;
    expect(r).toMatchObject({ statusCode: null, sent: false });
  });
});
