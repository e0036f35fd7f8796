// GET /_emulator/events over a real connection (server-sent events need one): events arrive in
// the order things happened, a reconnect with Last-Event-ID (or `since`) resumes after what it saw,
// HEAD and a quiet stream's heartbeat, a client that goes away or reads too slowly leaves no listener
// behind, and a shutdown ends open streams instead of waiting for them. Manual clock: time moves only
// by advance().
import { request, type IncomingMessage } from 'node:http';
import { afterEach, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';

interface SseEvent {
  id: string | undefined;
  event: string;
  data: Record<string, unknown>;
}

/** A small SSE reader: parses the stream as it comes and lets a test wait for an event. */
class SseClient {
  readonly events: SseEvent[] = [];
  /** Everything the stream sent, comment lines included. */
  raw = '';
  ended = false;
  private buffer = '';
  private waiters: Array<() => void> = [];

  private constructor(readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.raw += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
        }
        if (fields.data !== undefined)
          this.events.push({ id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) as Record<string, unknown> });
      }
      this.notify();
    });
    response.on('end', () => {
      this.ended = true;
      this.notify();
    });
  }

  static open(url: string, headers: Record<string, string> = {}, query = ''): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(`${url}/_emulator/events${query}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => resolve(new SseClient(res)));
      req.on('error', reject);
      req.end();
    });
  }

  /** Resolves once the predicate holds (checked on every chunk); the test timeout guards a hang. */
  until(predicate: (c: SseClient) => boolean): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate(this)) return false;
        resolve();
        return true;
      };
      this.waiters.push(() => void check());
      const original = this.waiters[this.waiters.length - 1]!;
      this.waiters[this.waiters.length - 1] = () => {
        if (!check()) return;
        this.waiters = this.waiters.filter((w) => w !== original);
      };
    });
  }

  of(kind: string): SseEvent[] {
    return this.events.filter((e) => e.event === kind);
  }

  close(): void {
    this.response.destroy();
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }
}

let emu: RunningEmulator | undefined;
const clients: SseClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await emu?.close();
  emu = undefined;
});

async function open(headers: Record<string, string> = {}, query = ''): Promise<SseClient> {
  const client = await SseClient.open(emu!.url, headers, query);
  clients.push(client);
  return client;
}

async function call(method: string, path: string, body?: unknown): Promise<{ id: string }> {
  const res = await fetch(`${emu!.url}${path}`, {
    method,
    headers: { authorization: emu!.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  const json = (await res.json()) as { data?: { id: string } };
  return json.data ?? (json as unknown as { id: string });
}

it('streams a hello, then domain events, requests and clock moves in the order they happened, with increasing ids', async () => {
  emu = await startEmulator({ seed: 'events-order', clock: 'manual' });
  const sse = await open();
  expect(sse.response.statusCode).toBe(200);
  expect(sse.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  await sse.until((c) => c.events.length >= 1);
  expect(sse.events[0]).toMatchObject({ event: 'hello', data: { now: '2026-01-01T00:00:00.000Z', mode: 'manual' } });

  const meeting = await call('POST', '/v2/meetings', { title: 'ordered' });
  const participant = await call('POST', `/v2/meetings/${meeting.id}/participants`, { custom_participant_id: 'p1', preset_name: 'group_call_host' });
  await call('POST', `/_emulator/meetings/${meeting.id}/participants/${participant.id}/join`);
  await call('POST', '/_emulator/clock/advance', { ms: 5_000 });
  await sse.until((c) => c.of('clock').length >= 1 && c.of('request').length >= 4);

  const told = sse.events
    .slice(1)
    .map((e) =>
      e.event === 'domain' ? `domain ${String(e.data.type)}` : e.event === 'request' ? `request ${String(e.data.method)} ${String(e.data.path)}` : e.event,
    );
  expect(told).toEqual([
    'request POST /v2/meetings',
    `request POST /v2/meetings/${meeting.id}/participants`,
    'domain meeting.started',
    'domain participant.joined',
    `request POST /_emulator/meetings/${meeting.id}/participants/${participant.id}/join`,
    'clock',
    'request POST /_emulator/clock/advance',
  ]);
  const ids = sse.events.slice(1).map((e) => Number(e.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  expect(sse.of('clock')[0]!.data).toEqual({ now: '2026-01-01T00:00:05.000Z', mode: 'manual' });
  expect(sse.of('domain')[1]!.data).toMatchObject({
    type: 'participant.joined',
    meeting_id: meeting.id,
    participant_id: participant.id,
    custom_participant_id: 'p1',
  });
  // A request event carries no body, query or header: nothing a client sent can leak through it.
  expect(Object.keys(sse.of('request')[0]!.data).sort()).toEqual(['api', 'deliveries', 'id', 'method', 'org_id', 'path', 'status']);
});

it("tells of no read of the control API (its own stream's among them): only what changes something is news", async () => {
  emu = await startEmulator({ seed: 'events-reads', clock: 'manual' });
  const sse = await open();
  await sse.until((c) => c.events.length >= 1);
  for (const path of ['/_emulator/health', '/_emulator/requests', '/_emulator/clock']) expect((await fetch(`${emu.url}${path}`)).status).toBe(200);
  expect((await fetch(`${emu.url}/_emulator/health`, { method: 'HEAD' })).status).toBe(200);
  await call('POST', '/_emulator/clock/advance', { ms: 1_000 });
  await call('GET', '/v2/meetings');
  await sse.until((c) => c.of('request').length >= 2);
  expect(sse.of('request').map((e) => `${String(e.data.method)} ${String(e.data.path)}`)).toEqual(['POST /_emulator/clock/advance', 'GET /v2/meetings']);
});

it('replays the history after Last-Event-ID to a client that reconnects (requests are not replayed: the journal has them)', async () => {
  emu = await startEmulator({ seed: 'events-replay', clock: 'manual' });
  await emu.advance(1_000);
  await emu.advance(1_000);
  const first = await open();
  await first.until((c) => c.of('clock').length >= 2);
  const [one, two] = first.of('clock');
  expect([one!.data.now, two!.data.now]).toEqual(['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z']);

  const again = await open({ 'last-event-id': one!.id! });
  await emu.advance(1_000);
  await again.until((c) => c.of('clock').length >= 2);
  expect(again.of('clock').map((e) => e.data.now)).toEqual(['2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z']);
});

it('replays what follows `since`, or Last-Event-ID when it is an id; all the history after an id it never gave', async () => {
  emu = await startEmulator({ seed: 'events-since', clock: 'manual' });
  for (let i = 0; i < 12; i++) await emu.advance(1_000);
  const all = await open();
  await all.until((c) => c.of('clock').length >= 12);
  // Ids as the stream gave them: the eleventh has two digits, the twelfth is the newest.
  const ids = all.of('clock').map((e) => e.id!);
  const [eleventh, twelfth] = [ids[10]!, ids[11]!];
  const cases: Array<[Record<string, string>, string]> = [
    [{}, `?since=${eleventh}`],
    [{ 'last-event-id': `x${eleventh}` }, `?since=${eleventh}`],
    [{ 'last-event-id': `${eleventh}x` }, `?since=${eleventh}`],
    [{ 'last-event-id': eleventh }, ''],
    [{ 'last-event-id': twelfth }, ''],
    [{ 'last-event-id': '999999999' }, ''],
  ];
  const streams = await Promise.all(cases.map(([headers, query]) => open(headers, query)));
  await emu.advance(1_000);
  await Promise.all(streams.map((s) => s.until((c) => c.of('clock').some((e) => e.data.now === '2026-01-01T00:00:13.000Z'))));
  const nows = streams.map((s) => s.of('clock').map((e) => e.data.now));
  expect(nows.slice(0, 4)).toEqual(Array(4).fill(['2026-01-01T00:00:12.000Z', '2026-01-01T00:00:13.000Z']));
  expect(nows[4]).toEqual(['2026-01-01T00:00:13.000Z']);
  expect(nows[5]).toEqual([
    '2026-01-01T00:00:01.000Z',
    '2026-01-01T00:00:02.000Z',
    '2026-01-01T00:00:03.000Z',
    '2026-01-01T00:00:04.000Z',
    '2026-01-01T00:00:05.000Z',
    '2026-01-01T00:00:06.000Z',
    '2026-01-01T00:00:07.000Z',
    '2026-01-01T00:00:08.000Z',
    '2026-01-01T00:00:09.000Z',
    '2026-01-01T00:00:10.000Z',
    '2026-01-01T00:00:11.000Z',
    '2026-01-01T00:00:12.000Z',
    '2026-01-01T00:00:13.000Z',
  ]);
});

it('answers HEAD with the headers of the stream (no caching, no proxy buffering) and closes at once', async () => {
  emu = await startEmulator({ seed: 'events-head', clock: 'manual' });
  const res = await fetch(`${emu.url}/_emulator/events`, { method: 'HEAD' });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
  expect(res.headers.get('x-accel-buffering')).toBe('no');
  expect(res.headers.get('connection')).toBe('close');
});

it('sends a comment line every 15 s (real time) so that a quiet stream stays open', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  try {
    emu = await startEmulator({ seed: 'events-heartbeat', clock: 'manual' });
    const sse = await open();
    await sse.until((c) => c.events.length >= 1);
    expect(sse.raw).not.toContain(': keep-alive');
    vi.advanceTimersByTime(15_000);
    await sse.until((c) => c.raw.includes(': keep-alive\n\n'));
    vi.advanceTimersByTime(15_000);
    await sse.until((c) => c.raw.split(': keep-alive\n\n').length === 3);
  } finally {
    vi.useRealTimers();
  }
});

it('lets go of a client that reads slower than events come, once it is over 1 MiB behind', async () => {
  emu = await startEmulator({ seed: 'events-slow', clock: 'manual' });
  const slow = await open();
  await slow.until((c) => c.events.length >= 1);
  slow.response.on('error', () => {});
  slow.response.pause();
  // Sixteen events of 1 MiB each, far more than the socket buffers hold for a reader that reads nothing.
  for (let i = 0; i < 16; i++)
    emu.deps.feed.request({ id: `r${i}`, api: 'v2', method: 'GET', path: `/${'x'.repeat(1024 * 1024)}`, status: 200, org_id: null, deliveries: [] });
  await vi.waitFor(() => expect(emu!.deps.feed.listenerCount).toBe(0));
});

it('tells clients when the state is reset, and forgets the history it replays', async () => {
  emu = await startEmulator({ seed: 'events-reset', clock: 'manual' });
  await emu.advance(1_000);
  const sse = await open();
  await call('POST', '/_emulator/reset');
  await sse.until((c) => c.of('reset').length === 1);
  expect(sse.of('reset')[0]!.data).toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'manual' });
  const late = await open();
  await late.until((c) => c.events.length >= 1);
  expect(late.events.map((e) => e.event)).not.toContain('clock');
});

it('drops the listener of a client that goes away', async () => {
  emu = await startEmulator({ seed: 'events-leak', clock: 'manual' });
  const sse = await open();
  await sse.until((c) => c.events.length >= 1);
  expect(emu.deps.feed.listenerCount).toBe(1);
  sse.close();
  await vi.waitFor(() => expect(emu!.deps.feed.listenerCount).toBe(0));
});

it('ends open streams on shutdown instead of holding it open, and keeps no listener', async () => {
  emu = await startEmulator({ seed: 'events-shutdown', clock: 'manual' });
  const streams = [await open(), await open()];
  await Promise.all(streams.map((s) => s.until((c) => c.events.length >= 1)));
  await emu.close();
  await Promise.all(streams.map((s) => s.until((c) => c.ended)));
  expect(emu.deps.feed.listenerCount).toBe(0);
  expect(emu.deps.feed.isClosed).toBe(true);
});
