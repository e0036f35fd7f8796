// A real webhook receiver on 127.0.0.1, port 0, for the network tests: it keeps the raw body
// of every request and answers what the test scripts (a status, or never).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { BASIC, makeTestApp, type TestApp } from './test-app.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: Record<string, unknown>;
}

/** A status to answer with, or 'hang': never answer. */
export type Behaviour = (index: number, req: Received) => number | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  private behaviour: Behaviour = () => 200;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private hanging: ServerResponse[] = [];

  private constructor(private readonly server: Server) {}

  static async start(behaviour?: Behaviour): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    if (behaviour) receiver.behaviour = behaviour;
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          // kept raw; the test decides
        }
        const received: Received = { path: req.url ?? '', headers: req.headers, raw, json };
        const index = receiver.received.length;
        receiver.received.push(received);
        const answer = receiver.behaviour(index, received);
        if (answer === 'hang') receiver.hanging.push(res);
        else res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        receiver.notify();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  /** Resolves once `count` requests in total have arrived (no polling, no sleeping). */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Cuts the connections of requests left unanswered (the sender sees a connection error). */
  dropHanging(): void {
    for (const res of this.hanging.splice(0)) res.socket?.destroy();
  }

  async close(): Promise<void> {
    this.dropHanging();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private notify(): void {
    this.waiters = this.waiters.filter((w) => {
      if (this.received.length < w.count) return true;
      w.resolve();
      return false;
    });
  }
}

// --- steps shared by the webhook scenarios (every HTTP call goes through the validating api) ---

export async function registerWebhook(t: TestApp, url: string, events: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api
    .post('/v2/webhooks')
    .set('Authorization', BASIC)
    .send({ name: `hook ${url}`, url, events, ...extra })
    .expect(201);
  return res.body.data.id as string;
}

export interface DeliveryDto {
  id: string;
  org_id: string | null;
  webhook_id: string;
  event: string;
  url: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ at: string; status_code: number | null; error: string | null; duration_ms: number; trigger: string }>;
  next_attempt_at: string | null;
  failure_reason: string | null;
  created_at: string;
}

export async function deliveries(t: TestApp, query = ''): Promise<{ deliveries: DeliveryDto[]; total: number }> {
  const res = await t.api.get(`/_emulator/webhooks/deliveries${query ? `?${query}` : ''}`).expect(200);
  return res.body as { deliveries: DeliveryDto[]; total: number };
}

/**
 * What a receiver got, in the order the emulator sent it. Deliveries that go out together (a meeting's
 * start and its first join) each take a connection of their own, and on a busy machine the later can
 * reach the receiver first. `sent` is the emulator's delivery log, newest first (GET
 * /_emulator/webhooks/deliveries); the attempts of one delivery keep the order they arrived in.
 */
export function inSentOrder(received: readonly Received[], sent: readonly { id: string }[]): Received[] {
  const position = new Map(sent.map((d, i) => [d.id, sent.length - i]));
  const at = (r: Received) => position.get(String(r.headers['dyte-uuid'])) ?? Number.POSITIVE_INFINITY;
  return [...received].sort((a, b) => at(a) - at(b));
}

/** Moves the manual clock and waits until the attempts that fell due have finished. */
export async function advanceAndSettle(t: TestApp, ms: number): Promise<void> {
  t.advance(ms);
  await t.deps.webhooks.outbox.idle();
}

/**
 * What a network test starts — receivers and emulators — ended after each test: hanging
 * answers released, in-flight attempts awaited, transports and receivers closed.
 */
export function trackNetwork() {
  let receivers: Array<{ close(): Promise<void>; release?: () => void }> = [];
  let apps: TestApp[] = [];
  afterEach(async () => {
    for (const r of receivers) r.release?.();
    for (const t of apps) {
      await t.deps.webhooks.outbox.idle();
      t.deps.webhooks.outbox.close();
    }
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
    apps = [];
  });
  return {
    receiver<R extends { close(): Promise<void> }>(r: R, release?: (r: R) => void): R {
      receivers.push({ close: () => r.close(), release: release && (() => release(r)) });
      return r;
    },
    app(...args: Parameters<typeof makeTestApp>): TestApp {
      const t = makeTestApp(...args);
      apps.push(t);
      return t;
    },
  };
}
