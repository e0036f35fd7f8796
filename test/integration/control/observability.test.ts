import { describe, expect, it } from 'vitest';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { API_KEY, BASIC, makeTestApp } from '../../helpers/test-app.js';

describe('request journal', () => {
  it('records method, path, query, status, org and body, newest first, with x-request-id on every response', async () => {
    const t = makeTestApp();
    // duration_ms is real time (the emulated clock stands still here): within what the test measured around it.
    const before = Date.now();
    const created = await t.api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'J' }).expect(201);
    const listed = await t.api.get('/v2/meetings?per_page=5').set('Authorization', BASIC).expect(200);
    const unauthorized = await t.api.get('/v2/meetings').expect(401);
    const ids = [unauthorized, listed, created].map((r) => r.headers['x-request-id']);
    expect(new Set(ids).size).toBe(3);
    ids.forEach((id) => expect(id).toMatch(/^req_\d{6}$/));
    const journal = (await t.api.get('/_emulator/requests').expect(200)).body;
    const took = Date.now() - before;
    expect(journal.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(journal[2]).toEqual({
      id: ids[2],
      at: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/v2/meetings',
      query: {},
      status: 201,
      duration_ms: expect.any(Number),
      org_id: '00000000-0000-4000-8000-000000000001',
      account_id: null,
      app_id: null,
      body: { title: 'J' },
      deliveries: [],
    });
    expect(journal[2].duration_ms).toBeGreaterThanOrEqual(0);
    expect(journal[2].duration_ms).toBeLessThanOrEqual(took);
    expect(journal[1].query).toEqual({ per_page: '5' });
    expect(journal[0]).toMatchObject({ status: 401, org_id: null });
    // Control requests carry an id too, but the journal is of the emulated APIs only.
    expect((await t.api.get('/_emulator/health').expect(200)).headers['x-request-id']).toMatch(/^req_\d{6}$/);
    expect((await t.api.get('/_emulator/requests').expect(200)).body).toHaveLength(3);
  });

  it('never records an Authorization value or a storage secret', async () => {
    const t = makeTestApp();
    const m = (await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201)).body.data;
    await t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({
        meeting_id: m.id,
        storage_config: { type: 'aws', access_key: 'AKIA-SECRET-1', secret_key: 'SECRET-2', bucket: 'b', region: 'us-east-1', path: 'p' },
      })
      .expect(200);
    const text = JSON.stringify((await t.api.get('/_emulator/requests').expect(200)).body);
    expect(text).not.toContain('AKIA-SECRET-1');
    expect(text).not.toContain('SECRET-2');
    expect(text).not.toContain(BASIC.slice(6));
    expect(text).toContain('"access_key":"[redacted]"');
  });

  it('links the webhook deliveries a request caused', async () => {
    const t = makeTestApp();
    t.deps.webhooks.outbox.useTransport(new RecordingTransport());
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'h', url: 'http://127.0.0.1:9/h', events: ['recording.statusUpdate'] })
      .expect(201);
    const m = (await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201)).body.data;
    const started = await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: m.id }).expect(200);
    await t.deps.webhooks.outbox.idle();
    const [delivery] = (await t.api.get('/_emulator/webhooks/deliveries').expect(200)).body.deliveries;
    const journal = (await t.api.get('/_emulator/requests').expect(200)).body;
    const entry = journal.find((e: { id: string }) => e.id === started.headers['x-request-id']);
    expect(entry.deliveries).toEqual([delivery.id]);
    // The meeting's creation caused none.
    expect(journal.find((e: { path: string }) => e.path === '/v2/meetings').deliveries).toEqual([]);
  });

  it('filters, limits and clears', async () => {
    const t = makeTestApp();
    await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    await t.api.get('/v2/meetings/nope').set('Authorization', BASIC).expect(400);
    expect((await t.api.get('/_emulator/requests?method=post').expect(200)).body).toHaveLength(1);
    expect((await t.api.get('/_emulator/requests?status=400').expect(200)).body.map((e: { path: string }) => e.path)).toEqual(['/v2/meetings/nope']);
    expect((await t.api.get('/_emulator/requests?limit=2').expect(200)).body).toHaveLength(2);
    await t.api.delete('/_emulator/requests').expect(204);
    expect((await t.api.get('/_emulator/requests').expect(200)).body).toEqual([]);
  });

  it.each([
    [3, 3],
    [3, 4],
  ])('keeps at most its bound (journal size %i, %i requests)', async (size, requests) => {
    const t = makeTestApp({ journalSize: size });
    const ids: string[] = [];
    for (let i = 0; i < requests; i++) ids.push((await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200)).headers['x-request-id'] as string);
    const journal = (await t.api.get('/_emulator/requests').expect(200)).body;
    expect(journal.map((e: { id: string }) => e.id)).toEqual(ids.reverse().slice(0, size));
  });

  it('is off with size 0, and x-request-id is still sent', async () => {
    const t = makeTestApp({ journalSize: 0 });
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(res.headers['x-request-id']).toMatch(/^req_\d{6}$/);
    expect((await t.api.get('/_emulator/requests').expect(200)).body).toEqual([]);
  });

  it('stores a large body as a marker', async () => {
    const t = makeTestApp();
    await t.api
      .post('/v2/meetings')
      .set('Authorization', BASIC)
      .send({ title: 'x'.repeat(1024), recording_config: { blob: 'y'.repeat(40_000) } })
      .expect(201);
    const [entry] = (await t.api.get('/_emulator/requests').expect(200)).body;
    expect(entry.body).toEqual({ _truncated: true, bytes: expect.any(Number) });
  });
});

describe('fault rules', () => {
  it('answers the status in the API’s own error shape, count times, then stops', async () => {
    const t = makeTestApp();
    const rule = (await t.api.post('/_emulator/faults').send({ method: 'POST', path: '/v2/meetings', status: 503, count: 2 }).expect(201)).body;
    expect(rule).toEqual({ id: 'fault_1', method: 'POST', path: '/v2/meetings', status: 503, delay_ms: 0, drop: false, remaining: 2, matched: 0 });
    for (let i = 0; i < 2; i++) {
      const res = await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(503);
      expect(res.body).toEqual({ success: false, error: { code: 503, message: 'Injected fault (fault_1)' } });
    }
    await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201);
    expect((await t.api.get('/_emulator/faults').expect(200)).body).toEqual([]);
    // The faulted requests changed nothing.
    expect((await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200)).body.paging.total_count).toBe(1);
  });

  it('answers a v1 request in the v1 shape, with the code INJECTED_FAULT', async () => {
    const t = makeTestApp();
    await t.api.post('/_emulator/faults').send({ method: 'GET', path: '/api/v1/products/*', status: 503 }).expect(201);
    const res = await t.api.get('/api/v1/products/101-COLDBREW330').set('Authorization', `Bearer ${API_KEY}`).expect(503);
    expect(res.body).toEqual({ error: { code: 'INJECTED_FAULT', message: 'Injected fault (fault_1)' } });
    await t.api.get('/api/v1/products/101-COLDBREW330').set('Authorization', `Bearer ${API_KEY}`).expect(200);
  });

  it('matches path patterns and any method, and never applies to the control API', async () => {
    const t = makeTestApp();
    await t.api.post('/_emulator/faults').send({ path: '/v2/meetings/*', status: 500 }).expect(201);
    await t.api.post('/_emulator/faults').send({ path: '/_emulator/**', status: 500 }).expect(201);
    await t.api.get('/_emulator/health').expect(200);
    const list = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(list.body).toMatchObject({ success: true, data: [] });
    const faulted = await t.api.get('/v2/meetings/00000000-0000-4000-8000-000000000abc').set('Authorization', BASIC).expect(500);
    expect(faulted.body).toEqual({ success: false, error: { code: 500, message: 'Injected fault (fault_1)' } });
    // The control API's rule matched nothing there: it is still armed.
    expect((await t.api.get('/_emulator/faults').expect(200)).body.map((r: { path: string }) => r.path)).toEqual(['/_emulator/**']);
  });

  it('waits delay_ms before answering normally', async () => {
    const t = makeTestApp();
    const waited: number[] = [];
    t.deps.sleep = async (ms) => void waited.push(ms);
    await t.api.post('/_emulator/faults').send({ path: '/v2/meetings', delay_ms: 2500 }).expect(201);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(waited).toEqual([2500]);
  });

  it('drops the connection', async () => {
    const t = makeTestApp();
    await t.api.post('/_emulator/faults').send({ path: '/v2/meetings', drop: true }).expect(201);
    await expect(t.api.get('/v2/meetings').set('Authorization', BASIC)).rejects.toThrow(/socket hang up|ECONNRESET/);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    const journal = (await t.api.get('/_emulator/requests').expect(200)).body;
    expect(journal[1]).toMatchObject({ path: '/v2/meetings', status: 0 });
  });

  it.each([
    [{ path: '/v2/meetings' }, '"status" needs at least one of status, delay_ms or drop'],
    [{ path: 'v2/meetings', status: 500 }, '"path" must start with "/"'],
    [{ path: '/v2/meetings', status: 200 }, '"status" must be greater than or equal to 400'],
    [{ path: '/v2/meetings', status: 500, count: 0 }, '"count" must be greater than or equal to 1'],
  ])('rejects %j', async (body, message) => {
    const t = makeTestApp();
    const res = await t.api.post('/_emulator/faults').send(body).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
  });

  it('clears every rule', async () => {
    const t = makeTestApp();
    await t.api.post('/_emulator/faults').send({ path: '/v2/meetings', status: 500, count: 5 }).expect(201);
    await t.api.delete('/_emulator/faults').expect(204);
    expect((await t.api.get('/_emulator/faults').expect(200)).body).toEqual([]);
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect(res.body).toMatchObject({ success: true, data: [] });
  });
});

describe('rate limiting', () => {
  it('is off by default', async () => {
    const t = makeTestApp();
    for (let i = 0; i < 5; i++) {
      const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
      expect(res.body).toMatchObject({ success: true, data: [] });
      expect(res.headers['retry-after']).toBeUndefined();
    }
  });

  it('answers 429 with retry-after past N per minute per client, and lifts as the clock moves', async () => {
    const t = makeTestApp({ rateLimit: 2 });
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    t.advance(20_000);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    expect(res.headers['retry-after']).toBe('40');
    expect(res.body).toEqual({ success: false, error: { code: 429, message: 'Too many requests' } });
    // Another client has its own budget; the control API is never limited.
    await t.api.get('/v2/meetings').set('Authorization', 'Basic other').expect(401);
    await t.api.get('/_emulator/health').expect(200);
    t.advance(40_000);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
  });
});

describe("the health answer's media.listening, before the media plane has opened anything", () => {
  it.each([
    [
      'the defaults: the loopback, one port the system picks when the first page connects',
      {},
      { address: '127.0.0.1', candidates: ['127.0.0.1'], udp_port: null, udp_port_range: null, tcp_port: null, open: false },
    ],
    [
      'a fixed port, announced as another address (a container whose port is published)',
      { host: '0.0.0.0', mediaPort: 4710, mediaAnnounce: '127.0.0.1' },
      { address: '0.0.0.0', candidates: ['127.0.0.1'], udp_port: 4710, udp_port_range: null, tcp_port: 4710, open: false },
    ],
    [
      'a range: a UDP port per transport, TCP on its first',
      { host: '::1', mediaPort: { from: 40000, to: 40019 } },
      { address: '::1', candidates: ['::1'], udp_port: null, udp_port_range: { from: 40000, to: 40019 }, tcp_port: 40000, open: false },
    ],
  ] as const)('%s', async (_what, overrides, listening) => {
    const t = makeTestApp(overrides);
    const health = (await t.api.get('/_emulator/health').expect(200)).body as { media: { listening: unknown } };
    expect(health.media.listening).toEqual(listening);
  });
});
