// Webhook fan-out: signed deliveries per second from the emulator (its own process) to a local
// receiver (in the bench process), against the raw RSA-SHA256 signing rate of this machine,
// measured in the same run on a body of the same size. Written against the documented API:
// POST /v2/webhooks {name, url, events}, then recording.statusUpdate events from
// POST /v2/recordings (the emulator runs with --simulator manual, so each start is exactly
// one event and nothing else fires meanwhile).
import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hrMs, request } from './servers.js';

export interface Receiver {
  url: string;
  count: number;
  badSignatures: number;
  lastAt: number;
  sampleBody: Buffer | undefined;
  publicKey: KeyObject | undefined;
  reset(): void;
  /** Resolves once `n` deliveries arrived since the last reset (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let waiter: { n: number; resolve: () => void } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const signature = String(req.headers['dyte-signature'] ?? '');
      if (!r.publicKey || !verify('sha256', body, r.publicKey, Buffer.from(signature, 'base64'))) r.badSignatures += 1;
      r.sampleBody ??= body;
      r.count += 1;
      r.lastAt = hrMs();
      res.writeHead(200, { 'content-length': '0' });
      res.end();
      if (waiter && r.count >= waiter.n) {
        waiter.resolve();
        waiter = undefined;
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const r: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: 0,
    badSignatures: 0,
    lastAt: 0,
    sampleBody: undefined,
    publicKey: undefined,
    reset() {
      r.count = 0;
      r.lastAt = 0;
    },
    waitFor(n, timeoutMs) {
      if (r.count >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`only ${r.count} of ${n} deliveries within ${timeoutMs} ms`)), timeoutMs);
        waiter = {
          n,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        };
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return r;
}

/** Registers `count` webhooks for recording.statusUpdate, each at its own receiver URL. */
export async function registerWebhooks(base: string, receiver: Receiver, count: number): Promise<void> {
  const doc = await request<{ public_key: string }>(base, 'GET', '/.well-known/webhooks.json');
  receiver.publicKey = createPublicKey(doc.body.public_key);
  for (let i = 0; i < count; i++) {
    const res = await request(base, 'POST', '/v2/webhooks', {
      name: `bench receiver ${i}`,
      url: `${receiver.url}/hook/${i}`,
      events: ['recording.statusUpdate'],
    });
    if (res.status !== 201) throw new Error(`POST /v2/webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function createMeetings(base: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  await pool(
    Array.from({ length: count }, (_, i) => i),
    16,
    async (i) => {
      const res = await request<{ data: { id: string } }>(base, 'POST', '/v2/meetings', { title: `Webhook bench ${i}` });
      if (res.status !== 201) throw new Error(`POST /v2/meetings answered ${res.status}`);
      ids.push(res.body.data.id);
    },
  );
  return ids;
}

export interface FanoutRound {
  events: number;
  deliveries: number;
  seconds: number;
  perSecond: number;
}

/** Starts a recording on each meeting (one event each) and waits for every delivery. */
export async function fanoutRound(base: string, receiver: Receiver, meetingIds: readonly string[], webhooks: number): Promise<FanoutRound> {
  receiver.reset();
  const expected = meetingIds.length * webhooks;
  const started = hrMs();
  const done = receiver.waitFor(expected, 120_000);
  await pool(meetingIds, 16, async (id) => {
    const res = await request(base, 'POST', '/v2/recordings', { meeting_id: id });
    if (res.status !== 200) throw new Error(`POST /v2/recordings answered ${res.status}`);
  });
  await done;
  const seconds = (receiver.lastAt - started) / 1000;
  return { events: meetingIds.length, deliveries: expected, seconds, perSecond: expected / seconds };
}

let benchKey: KeyObject | undefined;

/** RSA-SHA256 (2048-bit key, PKCS#1 v1.5, as the emulator signs) over `body`, for `seconds`. */
export function rawSignRate(body: Buffer, seconds: number): number {
  benchKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const until = hrMs() + seconds * 1000;
  const started = hrMs();
  let n = 0;
  while (hrMs() < until) {
    for (let i = 0; i < 10; i++) sign('sha256', body, benchKey);
    n += 10;
  }
  return (n * 1000) / (hrMs() - started);
}
