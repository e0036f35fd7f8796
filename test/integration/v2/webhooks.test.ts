import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../../src/core/ids.js';
import { signingKeyFrom } from '../../../src/core/keys.js';
import { FixtureError, parseFixtures, type Fixtures } from '../../../src/store/fixtures.js';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { BASIC, ORG_ID, START, START_ISO, basicAuth, fixtures, makeTestApp } from '../../helpers/test-app.js';
import { createMeeting, startRecording } from '../../helpers/builders.js';
import { WEBHOOK_EVENTS } from '../../helpers/documented.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOOK = { name: 'Recordings', url: 'https://receiver.test/hooks/dyte', events: ['recording.statusUpdate'] };
const OTHER_ORG = { id: '00000000-0000-4000-8000-000000000002', name: 'Other Org', api_key: 'other-org-api-key', products: [] };

function withOtherOrg(): Fixtures {
  const f = fixtures();
  f.organizations.push({ ...OTHER_ORG });
  return f;
}

describe('POST /v2/webhooks', () => {
  it('registers a webhook: 201, enabled by default, times from the emulator clock', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: expect.stringMatching(UUID), ...HOOK, enabled: true, created_at: START_ISO, updated_at: START_ISO },
    });
  });

  it('accepts every one of the nine event names, and enabled: false', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, events: [...WEBHOOK_EVENTS], enabled: false })
      .expect(201);
    expect(res.body.data.events).toEqual([...WEBHOOK_EVENTS]);
    expect(res.body.data.enabled).toBe(false);
  });

  it.each([
    ['no body fields', {}, 'BAD_REQUEST: "name" is required'],
    ['no name', { url: HOOK.url, events: HOOK.events }, 'BAD_REQUEST: "name" is required'],
    ['no url', { name: 'x', events: HOOK.events }, 'BAD_REQUEST: "url" is required'],
    ['no events', { name: 'x', url: HOOK.url }, 'BAD_REQUEST: "events" is required'],
    ['an empty name', { ...HOOK, name: '' }, 'BAD_REQUEST: "name" is not allowed to be empty'],
    ['a name of 256 characters', { ...HOOK, name: 'n'.repeat(256) }, 'BAD_REQUEST: "name" length must be less than or equal to 255 characters long'],
    ['a name that is not a string', { ...HOOK, name: 7 }, 'BAD_REQUEST: "name" must be a string'],
    ['an ftp url', { ...HOOK, url: 'ftp://receiver.test/x' }, 'BAD_REQUEST: "url" must be a valid uri'],
    ['a url that is not a url', { ...HOOK, url: 'not a url' }, 'BAD_REQUEST: "url" must be a valid uri'],
    [
      'a url over 2048 characters',
      { ...HOOK, url: `https://receiver.test/${'a'.repeat(2048)}` },
      'BAD_REQUEST: "url" length must be less than or equal to 2048 characters long',
    ],
    ['no event', { ...HOOK, events: [] }, 'BAD_REQUEST: "events" must contain at least 1 items'],
    ['events as a string', { ...HOOK, events: 'recording.statusUpdate' }, 'BAD_REQUEST: "events" must be an array'],
    [
      'an unknown event',
      { ...HOOK, events: ['recording.statusUpdate', 'meeting.exploded'] },
      `BAD_REQUEST: "events[1]" must be one of [${WEBHOOK_EVENTS.join(', ')}]`,
    ],
    ['a repeated event', { ...HOOK, events: ['meeting.started', 'meeting.started'] }, 'BAD_REQUEST: "events[1]" contains a duplicate value'],
    ['enabled as a string', { ...HOOK, enabled: 'yes' }, 'BAD_REQUEST: "enabled" must be a boolean'],
  ])('rejects %s with 400 and registers nothing', async (_name, body, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/webhooks').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 400, message } });
    const list = await api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('answers 415 for a body that is not JSON and 400 for broken JSON', async () => {
    const { api } = makeTestApp();
    await api.post('/v2/webhooks').set('Authorization', BASIC).set('Content-Type', 'text/plain').send('name=x').expect(415);
    await api.post('/v2/webhooks').set('Authorization', BASIC).set('Content-Type', 'application/json').send('{"name":').expect(400);
  });

  it('refuses a second webhook with the same url (409), in the API error shape', async () => {
    const { api } = makeTestApp();
    const first = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    const res = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, name: 'again' })
      .expect(409);
    expect(res.body).toEqual({ success: false, error: { code: 409, message: `A webhook with url ${HOOK.url} already exists (id ${first.body.data.id})` } });
  });

  it('allows 100 webhooks per organization (docs/limits-and-decisions.md): the last one at the limit, 400 over it', async () => {
    const { api, deps } = makeTestApp();
    for (let i = 0; i < 99; i++) {
      deps.services.webhooks.create(ORG_ID, { name: `w${i}`, url: `https://receiver.test/${i}`, events: ['meeting.started'] });
    }
    await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://receiver.test/at-limit' })
      .expect(201);
    const over = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://receiver.test/over' })
      .expect(400);
    expect(over.body).toEqual({ success: false, error: { code: 400, message: 'An organization can register at most 100 webhooks; delete one first' } });
    const list = await api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(list.body.data).toHaveLength(100);
    await api.delete(`/v2/webhooks/${list.body.data[0].id}`).set('Authorization', BASIC).expect(200);
    await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://receiver.test/over' })
      .expect(201);
  });

  it.each([
    ['no header', undefined],
    ['wrong key', basicAuth(undefined, 'nope')],
    ['a bearer token', 'Bearer abc.def.ghi'],
  ])('answers 401 with %s', async (_name, header) => {
    const { api } = makeTestApp();
    const req = api.post('/v2/webhooks').send(HOOK);
    if (header) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body.error.code).toBe(401);
  });
});

describe('GET /v2/webhooks and /v2/webhooks/{id}', () => {
  it('lists in creation order, not paged', async () => {
    const { api } = makeTestApp();
    const a = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, name: 'a', url: 'https://a.test/' })
      .expect(201);
    const b = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, name: 'b', url: 'https://b.test/' })
      .expect(201);
    const res = await api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: [a.body.data, b.body.data] });
  });

  it('fetches one; 404 for an unknown id, 400 for a malformed one', async () => {
    const { api } = makeTestApp();
    const created = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    const res = await api.get(`/v2/webhooks/${created.body.data.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data).toEqual(created.body.data);
    const unknown = '00000000-0000-4000-8000-00000000beef';
    const missing = await api.get(`/v2/webhooks/${unknown}`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual({ success: false, error: { code: 404, message: `No webhook found with id ${unknown}` } });
    const bad = await api.get('/v2/webhooks/nope').set('Authorization', BASIC).expect(400);
    expect(bad.body.error.message).toBe('BAD_REQUEST: "id" must be a valid GUID');
  });

  it("never shows or touches another organization's webhooks", async () => {
    const { api } = makeTestApp({}, { fixtures: withOtherOrg() });
    const other = basicAuth(OTHER_ORG.id, OTHER_ORG.api_key);
    const mine = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    // The same url is free in another organization.
    await api.post('/v2/webhooks').set('Authorization', other).send(HOOK).expect(201);
    const theirs = await api.get('/v2/webhooks').set('Authorization', other).expect(200);
    expect(theirs.body.data.map((w: { id: string }) => w.id)).not.toContain(mine.body.data.id);
    await api.get(`/v2/webhooks/${mine.body.data.id}`).set('Authorization', other).expect(404);
    await api.patch(`/v2/webhooks/${mine.body.data.id}`).set('Authorization', other).send({ enabled: false }).expect(404);
    await api.delete(`/v2/webhooks/${mine.body.data.id}`).set('Authorization', other).expect(404);
    const still = await api.get(`/v2/webhooks/${mine.body.data.id}`).set('Authorization', BASIC).expect(200);
    expect(still.body.data).toEqual(mine.body.data);
  });
});

describe('PUT, PATCH, DELETE /v2/webhooks/{id}', () => {
  // The body production's reference shows for both PUT and PATCH.
  it.each(['put', 'patch'] as const)("%s takes the production reference's example body: 200", async (method) => {
    const { api } = makeTestApp();
    const created = (await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201)).body.data;
    const example = { name: 'test', events: ['meeting.started'], url: 'https://new-test-url.com' };
    const res = await api[method](`/v2/webhooks/${created.id}`).set('Authorization', BASIC).send(example).expect(200);
    expect(res.body.data).toMatchObject({ id: created.id, ...example, enabled: true });
  });

  it('PUT replaces: name, url, events required; enabled back to true when absent', async () => {
    const { api, advance } = makeTestApp();
    const created = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, enabled: false })
      .expect(201);
    const id = created.body.data.id;
    advance(60_000);
    const res = await api
      .put(`/v2/webhooks/${id}`)
      .set('Authorization', BASIC)
      .send({ name: 'All', url: 'https://new.test/', events: ['meeting.started', 'meeting.ended'] })
      .expect(200);
    expect(res.body.data).toEqual({
      id,
      name: 'All',
      url: 'https://new.test/',
      events: ['meeting.started', 'meeting.ended'],
      enabled: true,
      created_at: START_ISO,
      updated_at: new Date(START + 60_000).toISOString(),
    });
    const bad = await api.put(`/v2/webhooks/${id}`).set('Authorization', BASIC).send({ name: 'x' }).expect(400);
    expect(bad.body.error.message).toBe('BAD_REQUEST: "url" is required');
    const after = await api.get(`/v2/webhooks/${id}`).set('Authorization', BASIC).expect(200);
    expect(after.body.data).toEqual(res.body.data);
  });

  it('PATCH changes only the given fields', async () => {
    const { api, advance } = makeTestApp();
    const created = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    const id = created.body.data.id;
    advance(1_000);
    const res = await api.patch(`/v2/webhooks/${id}`).set('Authorization', BASIC).send({ enabled: false }).expect(200);
    expect(res.body.data).toEqual({ ...created.body.data, enabled: false, updated_at: new Date(START + 1_000).toISOString() });
    const bad = await api.patch(`/v2/webhooks/${id}`).set('Authorization', BASIC).send({ events: [] }).expect(400);
    expect(bad.body.error.message).toBe('BAD_REQUEST: "events" must contain at least 1 items');
  });

  it.each(['put', 'patch'] as const)('%s to a url another webhook has: 409, nothing changes', async (method) => {
    const { api } = makeTestApp();
    await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://a.test/' })
      .expect(201);
    const b = await api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://b.test/' })
      .expect(201);
    await api[method](`/v2/webhooks/${b.body.data.id}`)
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://a.test/' })
      .expect(409);
    const after = await api.get(`/v2/webhooks/${b.body.data.id}`).set('Authorization', BASIC).expect(200);
    expect(after.body.data).toEqual(b.body.data);
    // its own url is not a conflict
    await api[method](`/v2/webhooks/${b.body.data.id}`)
      .set('Authorization', BASIC)
      .send({ ...HOOK, url: 'https://b.test/' })
      .expect(200);
  });

  it('DELETE answers the deleted webhook; then it is gone', async () => {
    const { api } = makeTestApp();
    const created = await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    const id = created.body.data.id;
    const res = await api.delete(`/v2/webhooks/${id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: created.body.data });
    await api.get(`/v2/webhooks/${id}`).set('Authorization', BASIC).expect(404);
    await api.delete(`/v2/webhooks/${id}`).set('Authorization', BASIC).expect(404);
  });
});

describe('webhooks from fixtures', () => {
  const FIXTURE_HOOK = {
    id: '00000000-0000-4000-8000-0000000000f1',
    name: 'From fixtures',
    url: 'http://fixture.test/hook',
    events: ['recording.statusUpdate' as const],
    enabled: true,
  };

  it('are registered at start and come back on reset; API-made ones do not', async () => {
    const f = fixtures();
    f.organizations[0]!.webhooks = [FIXTURE_HOOK];
    const { api } = makeTestApp({}, { fixtures: f });
    const listed = await api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(listed.body.data).toEqual([
      {
        id: FIXTURE_HOOK.id,
        name: 'From fixtures',
        url: 'http://fixture.test/hook',
        events: ['recording.statusUpdate'],
        enabled: true,
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    ]);
    await api.delete(`/v2/webhooks/${FIXTURE_HOOK.id}`).set('Authorization', BASIC).expect(200);
    await api.post('/v2/webhooks').set('Authorization', BASIC).send(HOOK).expect(201);
    await api.post('/_emulator/reset').expect(200);
    const after = await api.get('/v2/webhooks').set('Authorization', BASIC).expect(200);
    expect(after.body.data).toEqual(listed.body.data);
  });

  it.each([
    [{ ...FIXTURE_HOOK, events: [] }, 'organizations[0].webhooks[0].events'],
    [{ ...FIXTURE_HOOK, url: 'ftp://fixture.test/' }, 'organizations[0].webhooks[0].url'],
    [{ ...FIXTURE_HOOK, events: ['meeting.exploded'] }, 'organizations[0].webhooks[0].events[0]'],
  ])('an invalid fixture webhook is a fixture error naming its path (%j)', (hook, path) => {
    const raw = JSON.parse(JSON.stringify(fixtures())) as { organizations: Array<Record<string, unknown>> };
    raw.organizations[0]!.webhooks = [hook];
    expect(() => parseFixtures(raw, 'f.json')).toThrow(FixtureError);
    expect(() => parseFixtures(raw, 'f.json')).toThrow(`f.json: ${path}:`);
  });

  it('refuses two fixture webhooks with the same url', () => {
    const raw = JSON.parse(JSON.stringify(fixtures())) as { organizations: Array<Record<string, unknown>> };
    raw.organizations[0]!.webhooks = [FIXTURE_HOOK, { ...FIXTURE_HOOK, id: undefined }];
    expect(() => parseFixtures(raw, 'f.json')).toThrow('f.json: organizations[0].webhooks[1].url: duplicate webhook url (one webhook per url)');
  });
});

describe('GET /.well-known/webhooks.json', () => {
  it('serves the signing key as SPKI PEM and a JWK with kid and alg RS256', async () => {
    const { api, deps } = makeTestApp();
    const res = await api.get('/.well-known/webhooks.json').expect(200);
    expect(res.body).toEqual({ public_key: deps.keys.webhooks.publicPem, keys: [deps.keys.webhooks.publicJwk] });
    expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', kid: expect.any(String) });
    expect(createPublicKey(res.body.public_key).asymmetricKeyType).toBe('rsa');
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE');
    // not the participant-token key
    expect(res.body.keys[0].kid).not.toBe(deps.keys.participantTokens.kid);
  });

  it('is the same key for the same --seed', async () => {
    const a = await makeTestApp().api.get('/.well-known/webhooks.json').expect(200);
    const b = await makeTestApp().api.get('/.well-known/webhooks.json').expect(200);
    expect(b.body).toEqual(a.body);
  });

  it('is the fixtures key when the fixtures carry one', async () => {
    const fixtureKey = signingKeyFrom(new SeededIds('fixture-key').rsaKey('webhooks'));
    const f = fixtures();
    f.webhook_signing_key = fixtureKey.privatePem();
    const res = await makeTestApp({}, { fixtures: f }).api.get('/.well-known/webhooks.json').expect(200);
    expect(res.body.public_key).toBe(fixtureKey.publicPem);
    expect(res.body.keys[0].kid).toBe(fixtureKey.kid);
  });
});

describe('the delivery log (control API)', () => {
  async function appWithDelivery() {
    const t = makeTestApp();
    const transport = new RecordingTransport(() => ({ statusCode: 500, error: null }));
    t.deps.webhooks.outbox.useTransport(transport);
    const hook = await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ ...HOOK, events: ['recording.statusUpdate', 'livestreaming.statusUpdate'] })
      .expect(201);
    const meeting = await createMeeting(t.api, { title: 'Log' });
    const recording = await startRecording(t.api, meeting.id);
    await t.deps.webhooks.outbox.idle();
    return { ...t, transport, webhookId: hook.body.data.id as string, meetingId: meeting.id, recordingId: recording.id };
  }

  it('lists each delivery with its payload, status, attempts and next attempt time', async () => {
    const { api, webhookId, recordingId, transport } = await appWithDelivery();
    const res = await api.get('/_emulator/webhooks/deliveries').expect(200);
    expect(res.body.total).toBe(1);
    expect(res.body.deliveries).toEqual([
      {
        id: transport.requests[0]!.headers['dyte-uuid'],
        org_id: ORG_ID,
        webhook_id: webhookId,
        event: 'recording.statusUpdate',
        url: HOOK.url,
        payload: JSON.parse(transport.requests[0]!.body.toString('utf8')),
        status: 'pending',
        attempts: [{ at: START_ISO, status_code: 500, error: 'Non-2xx answer: HTTP 500', duration_ms: expect.any(Number), trigger: 'initial' }],
        next_attempt_at: new Date(START + 1_000).toISOString(),
        failure_reason: null,
        // An INVOKED recording's delivery has nothing to add to its payload.
        note: null,
        created_at: START_ISO,
      },
    ]);
    expect(res.body.deliveries[0].payload).toMatchObject({ event: 'recording.statusUpdate', recording: { id: recordingId, status: 'INVOKED' } });
  });

  it('filters by webhook_id, event and status, newest first; limit caps the page', async () => {
    const { api, advance, deps, webhookId, meetingId, transport } = await appWithDelivery();
    transport.respondWith(() => ({ statusCode: 204, error: null }));
    await api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send({}).expect(201);
    advance(3_000); // the recorder joins: INVOKED → RECORDING
    await deps.webhooks.outbox.idle();
    const all = await api.get('/_emulator/webhooks/deliveries').expect(200);
    expect(all.body.deliveries.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['recording.statusUpdate', 'delivered'],
      ['livestreaming.statusUpdate', 'delivered'],
      ['recording.statusUpdate', 'delivered'], // the first one, retried at +1 s
    ]);
    const query = async (q: string) => (await api.get(`/_emulator/webhooks/deliveries?${q}`).expect(200)).body;
    expect((await query('event=livestreaming.statusUpdate')).total).toBe(1);
    expect((await query('status=pending')).total).toBe(0);
    expect((await query(`webhook_id=${webhookId}&event=recording.statusUpdate`)).total).toBe(2);
    expect((await query('webhook_id=00000000-0000-4000-8000-000000000000')).total).toBe(0);
    const page = await query('limit=1');
    expect(page.total).toBe(3);
    expect(page.deliveries).toEqual([all.body.deliveries[0]]);
  });

  it.each([
    ['status=done', 'status'],
    ['event=meeting.exploded', 'event'],
    ['limit=0', 'limit'],
    ['limit=10001', 'limit'],
  ])('answers 400 for %s in the control error shape', async (q, field) => {
    const { api } = makeTestApp();
    const res = await api.get(`/_emulator/webhooks/deliveries?${q}`).expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toContain(`"${field}"`);
  });

  it('fetches one delivery; 404 for an unknown one', async () => {
    const { api } = await appWithDelivery();
    const list = await api.get('/_emulator/webhooks/deliveries').expect(200);
    const one = await api.get(`/_emulator/webhooks/deliveries/${list.body.deliveries[0].id}`).expect(200);
    expect(one.body).toEqual(list.body.deliveries[0]);
    const unknown = '00000000-0000-4000-8000-00000000dead';
    const missing = await api.get(`/_emulator/webhooks/deliveries/${unknown}`).expect(404);
    expect(missing.body).toEqual({ error: { code: 'NOT_FOUND', message: `No delivery found with id ${unknown}` } });
    await api.post(`/_emulator/webhooks/deliveries/${unknown}/redeliver`).expect(404);
  });

  it('redeliver sends it again now with the same dyte-uuid and answers once the attempt ended', async () => {
    const { api, transport } = await appWithDelivery();
    transport.respondWith(() => ({ statusCode: 200, error: null }));
    const [d] = (await api.get('/_emulator/webhooks/deliveries').expect(200)).body.deliveries;
    const res = await api.post(`/_emulator/webhooks/deliveries/${d.id}/redeliver`).expect(200);
    expect(res.body).toMatchObject({ id: d.id, status: 'delivered', next_attempt_at: null });
    expect(res.body.attempts.map((a: { trigger: string; status_code: number }) => [a.trigger, a.status_code])).toEqual([
      ['initial', 500],
      ['redeliver', 200],
    ]);
    expect(transport.requests.map((r) => r.headers['dyte-uuid'])).toEqual([d.id, d.id]);
  });

  it('links each delivery to the request that caused it in the request journal', async () => {
    const { api, transport } = await appWithDelivery();
    const entries = (await api.get('/_emulator/requests?path_prefix=/v2/recordings').expect(200)).body as Array<{ method: string; deliveries: string[] }>;
    expect(entries.map((e) => [e.method, e.deliveries])).toEqual([['POST', [transport.requests[0]!.headers['dyte-uuid']]]]);
  });

  it('reset empties the log', async () => {
    const { api } = await appWithDelivery();
    await api.post('/_emulator/reset').expect(200);
    const res = await api.get('/_emulator/webhooks/deliveries').expect(200);
    expect(res.body).toEqual({ deliveries: [], total: 0 });
  });
});
