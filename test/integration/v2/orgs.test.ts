// The partner API (docs/api-v2.md, "Organizations"): GET|POST /v2/orgs, GET|PATCH /v2/orgs/{org_id},
// authenticated with the partner token (`Authorization: Bearer <token>`, --partner-token, default
// emulator-partner-token), over the same organizations as the control API.
import { Writable } from 'node:stream';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { defaultConfig } from '../../../src/config.js';
import { buildDeps } from '../../../src/container.js';
import { createLogger } from '../../../src/logger.js';
import { MISSING_ID, v2Error } from '../../helpers/builders.js';
import { API_KEY, BASIC, ORG_ID, START, START_ISO, basicAuth, fixtures, makeTestApp, validatingApi } from '../../helpers/test-app.js';

const PARTNER = 'Bearer emulator-partner-token';
/** The account every organization belongs to unless told otherwise (docs/realtimekit.md). */
const DEFAULT_ACCOUNT = '00000000000000000000000000000001';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ACME = { name: 'Acme', contact: '778-330-2389', website: 'https://acme.example' };

describe('POST /v2/orgs', () => {
  it('creates an organization: 201, OrganizationData with its API key, defaults for region and flags, times from the emulator clock', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(UUID),
        ...ACME,
        apikey: expect.any(String),
        preferred_region: 'ap-south-1',
        feature_flags: [],
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
    expect(res.body.data.apikey.length).toBeGreaterThanOrEqual(16);
  });

  it('keeps the given region and feature flags', async () => {
    const { api } = makeTestApp();
    const res = await api
      .post('/v2/orgs')
      .set('Authorization', PARTNER)
      .send({ ...ACME, preferred_region: 'eu-central-1', feature_flags: ['beta-ui'] })
      .expect(201);
    expect(res.body.data).toMatchObject({ preferred_region: 'eu-central-1', feature_flags: ['beta-ui'] });
  });

  it('the new organization works on /v2 with its own key, isolated from the others, and appears in the control API', async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201)).body.data;
    const auth = basicAuth(org.id, org.apikey);
    const meeting = (await t.api.post('/v2/meetings').set('Authorization', auth).send({ title: 'Acme standup' }).expect(201)).body.data;
    // Its presets are the default ones: a participant can join with one.
    await t.api
      .post(`/v2/meetings/${meeting.id}/participants`)
      .set('Authorization', auth)
      .send({ preset_name: 'group_call_host', custom_participant_id: 'acme-host' })
      .expect(201);
    expect((await t.api.get('/v2/meetings').set('Authorization', auth).expect(200)).body.data.map((m: { id: string }) => m.id)).toEqual([meeting.id]);
    // The fixture organization does not see it, and cannot reach it.
    const mine = (await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200)).body.data as Array<{ id: string }>;
    expect(mine.map((m) => m.id)).not.toContain(meeting.id);
    await t.api.get(`/v2/meetings/${meeting.id}`).set('Authorization', BASIC).expect(404);
    const listed = (await t.api.get('/_emulator/orgs').expect(200)).body as Array<{ id: string; name: string }>;
    expect(listed).toContainEqual({ id: org.id, name: 'Acme', account_id: DEFAULT_ACCOUNT });
  });

  it('refuses a name another organization has: 409, nothing created', async () => {
    const t = makeTestApp();
    await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201);
    const res = await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(409);
    expect(res.body).toEqual(v2Error(409, 'Organization with the name Acme already exists'));
    // The fixture organization's name is taken as well.
    await t.api
      .post('/v2/orgs')
      .set('Authorization', PARTNER)
      .send({ ...ACME, name: 'Emulator Org' })
      .expect(409);
    expect((await t.api.get('/v2/orgs').set('Authorization', PARTNER).expect(200)).body.paging.total_count).toBe(2);
  });

  it.each([
    ['no name', { contact: 'c', website: 'https://a.example' }, '"name" is required'],
    ['no contact', { name: 'A', website: 'https://a.example' }, '"contact" is required'],
    ['no website', { name: 'A', contact: 'c' }, '"website" is required'],
    ['a website that is no URL', { ...ACME, website: 'acme' }, /^BAD_REQUEST: "website" /],
    ['an empty name', { ...ACME, name: '' }, /^BAD_REQUEST: "name" /],
    ['a region outside the enum', { ...ACME, preferred_region: 'mars-1' }, /^BAD_REQUEST: "preferred_region" must be one of/],
    ['feature flags that are not strings', { ...ACME, feature_flags: [1] }, /^BAD_REQUEST: "feature_flags\[0\]" /],
    ['a name over 200 characters', { ...ACME, name: 'n'.repeat(201) }, /^BAD_REQUEST: "name" length must be less than or equal to 200/],
  ])('answers 400 for %s, and creates nothing', async (_name, body, message) => {
    const t = makeTestApp();
    const res = await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, typeof message === 'string' ? `BAD_REQUEST: ${message}` : message));
    expect((await t.api.get('/v2/orgs').set('Authorization', PARTNER).expect(200)).body.paging.total_count).toBe(1);
  });
});

describe('GET /v2/orgs', () => {
  it('lists every organization, fixtures first, with paging', async () => {
    const t = makeTestApp();
    const control = (await t.api.post('/_emulator/orgs').send({ name: 'Worker 1' }).expect(201)).body;
    const acme = (await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201)).body.data;
    const all = await t.api.get('/v2/orgs').set('Authorization', PARTNER).expect(200);
    expect(all.body.paging).toEqual({ total_count: 3, start_offset: 1, end_offset: 3 });
    expect(all.body.data.map((o: { id: string }) => o.id)).toEqual([ORG_ID, control.id, acme.id]);
    // The fixture organization and the control API's have the default profile.
    expect(all.body.data[0]).toEqual({
      id: ORG_ID,
      name: 'Emulator Org',
      contact: '',
      website: 'https://example.com',
      apikey: API_KEY,
      preferred_region: 'ap-south-1',
      feature_flags: [],
      created_at: START_ISO,
      updated_at: START_ISO,
    });
    expect(all.body.data[1]).toMatchObject({ name: 'Worker 1', apikey: control.api_key });
    const second = await t.api.get('/v2/orgs?per_page=1&page_no=2').set('Authorization', PARTNER).expect(200);
    expect(second.body.data.map((o: { id: string }) => o.id)).toEqual([control.id]);
    expect(second.body.paging).toEqual({ total_count: 3, start_offset: 2, end_offset: 2 });
  });

  it.each(['page_no=-1', 'per_page=-1', 'per_page=101', 'page_no=x'])('answers 400 for %s', async (query) => {
    const { api } = makeTestApp();
    await api.get(`/v2/orgs?${query}`).set('Authorization', PARTNER).expect(400);
  });
});

describe('GET|PATCH /v2/orgs/{org_id}', () => {
  it('fetches one organization', async () => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/orgs/${ORG_ID}`).set('Authorization', PARTNER).expect(200);
    expect(res.body.data).toMatchObject({ id: ORG_ID, name: 'Emulator Org', apikey: API_KEY });
  });

  it('edits only the given fields; the key and the resources stay; updated_at moves with the clock', async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201)).body.data;
    const auth = basicAuth(org.id, org.apikey);
    await t.api.post('/v2/meetings').set('Authorization', auth).send({ title: 'kept' }).expect(201);
    t.advance(60_000);
    const res = await t.api
      .patch(`/v2/orgs/${org.id}`)
      .set('Authorization', PARTNER)
      .send({ name: 'Acme Corp', feature_flags: ['x'], preferred_region: 'us-east-1' })
      .expect(200);
    expect(res.body.data).toEqual({
      ...org,
      name: 'Acme Corp',
      feature_flags: ['x'],
      preferred_region: 'us-east-1',
      updated_at: new Date(START + 60_000).toISOString(),
    });
    expect((await t.api.get(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).expect(200)).body.data).toEqual(res.body.data);
    expect((await t.api.get('/v2/meetings').set('Authorization', auth).expect(200)).body.data).toHaveLength(1);
    expect((await t.api.get('/_emulator/orgs').expect(200)).body).toContainEqual({ id: org.id, name: 'Acme Corp', account_id: DEFAULT_ACCOUNT });
    // An empty edit changes nothing but updated_at.
    await t.api.patch(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).send({}).expect(200);
  });

  it("a rename to another organization's name is a 409; to its own name is fine", async () => {
    const t = makeTestApp();
    const org = (await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(ACME).expect(201)).body.data;
    const res = await t.api.patch(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).send({ name: 'Emulator Org', contact: 'changed' }).expect(409);
    expect(res.body).toEqual(v2Error(409, 'Organization with the name Emulator Org already exists'));
    expect((await t.api.get(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).expect(200)).body.data).toEqual(org);
    await t.api.patch(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).send({ name: 'Acme' }).expect(200);
  });

  it('an edit that gives the organization its own name is no rename: no 409 even when another organization has that name too', async () => {
    const t = makeTestApp();
    // The control API does not refuse a name that is taken: two organizations share one.
    const first = (await t.api.post('/_emulator/orgs').send({ name: 'Twin' }).expect(201)).body;
    await t.api.post('/_emulator/orgs').send({ name: 'Twin' }).expect(201);
    const res = await t.api.patch(`/v2/orgs/${first.id}`).set('Authorization', PARTNER).send({ name: 'Twin', contact: 'kept' }).expect(200);
    expect(res.body.data).toMatchObject({ id: first.id, name: 'Twin', contact: 'kept' });
  });

  it.each([
    ['get', {}],
    ['patch', { contact: 'x' }],
  ] as const)('%s: an unknown id is a 404, a malformed one a 400', async (method, body) => {
    const { api } = makeTestApp();
    const missing = await api[method](`/v2/orgs/${MISSING_ID}`).set('Authorization', PARTNER).send(body).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No organization found with id ${MISSING_ID}`));
    const bad = await api[method]('/v2/orgs/not-an-id').set('Authorization', PARTNER).send(body).expect(400);
    expect(bad.body).toEqual(v2Error(400, /^BAD_REQUEST: "org_id" /));
  });

  it('answers 400 for a bad field and leaves the organization as it was', async () => {
    const { api } = makeTestApp();
    await api.patch(`/v2/orgs/${ORG_ID}`).set('Authorization', PARTNER).send({ website: 'not a url' }).expect(400);
    expect((await api.get(`/v2/orgs/${ORG_ID}`).set('Authorization', PARTNER).expect(200)).body.data.website).toBe('https://example.com');
  });

  it('an organization reset through the control API returns to its fixture profile', async () => {
    const t = makeTestApp();
    await t.api.patch(`/v2/orgs/${ORG_ID}`).set('Authorization', PARTNER).send({ name: 'Renamed', contact: 'c' }).expect(200);
    await t.api.post(`/_emulator/orgs/${ORG_ID}/reset`).expect(200);
    expect((await t.api.get(`/v2/orgs/${ORG_ID}`).set('Authorization', PARTNER).expect(200)).body.data).toMatchObject({ name: 'Emulator Org', contact: '' });
  });

  it('survives a state export and import, byte for byte', async () => {
    const t = makeTestApp();
    const org = (
      await t.api
        .post('/v2/orgs')
        .set('Authorization', PARTNER)
        .send({ ...ACME, feature_flags: ['f'] })
        .expect(201)
    ).body.data;
    t.advance(5_000);
    await t.api.patch(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).send({ contact: 'new' }).expect(200);
    const exported = (await t.api.get('/_emulator/state').expect(200)).text;
    const before = (await t.api.get(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).expect(200)).body;
    const other = makeTestApp();
    await other.api.put('/_emulator/state').set('Content-Type', 'application/json').send(exported).expect(200);
    expect((await other.api.get(`/v2/orgs/${org.id}`).set('Authorization', PARTNER).expect(200)).body).toEqual(before);
    expect((await other.api.get('/_emulator/state').expect(200)).text).toBe(exported);
  });
});

describe('the partner token', () => {
  const routes = [
    ['get', '/v2/orgs'],
    ['post', '/v2/orgs'],
    ['get', `/v2/orgs/${ORG_ID}`],
    ['patch', `/v2/orgs/${ORG_ID}`],
  ] as const;

  it.each(routes)('%s %s: 401 without it, with a wrong one, with Basic credentials or another scheme; nothing changes', async (method, path) => {
    const t = makeTestApp();
    const before = (await t.api.get('/v2/orgs').set('Authorization', PARTNER).expect(200)).text;
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Missing Authorization header'],
      ['Bearer not-the-partner-token', 'Invalid partner token'],
      [`Bearer ${API_KEY}`, 'Invalid partner token'],
      [BASIC, 'Expected Authorization: Bearer <partner token>'],
      ['Bearer ', 'Expected Authorization: Bearer <partner token>'],
      ['Token emulator-partner-token', 'Expected Authorization: Bearer <partner token>'],
    ];
    for (const [header, message] of cases) {
      const req = t.api[method](path);
      if (header) req.set('Authorization', header);
      const res = await req.send(ACME).expect(401);
      expect(res.body, String(header)).toEqual(v2Error(401, message));
    }
    expect((await t.api.get('/v2/orgs').set('Authorization', PARTNER).expect(200)).text).toBe(before);
  });

  it('is not accepted by the organization routes, which keep Basic credentials', async () => {
    const { api } = makeTestApp();
    await api.get('/v2/meetings').set('Authorization', PARTNER).expect(401);
  });

  it('is configurable (--partner-token / EMULATOR_PARTNER_TOKEN); the default then stops working', async () => {
    const { api } = makeTestApp({ partnerToken: 'my-own-partner-token' });
    await api.get('/v2/orgs').set('Authorization', 'Bearer my-own-partner-token').expect(200);
    await api.get('/v2/orgs').set('Authorization', PARTNER).expect(401);
  });

  it('never appears in the request journal, the logs or an answer', async () => {
    const token = 'PARTNER-SECRET-TOKEN-42';
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = defaultConfig({ clock: 'manual', startTime: START, seed: 'partner', logLevel: 'trace', partnerToken: token });
    const app = createApp(buildDeps(config, { fixtures: fixtures(), logger: createLogger('trace', sink) }));
    const api = validatingApi(app);
    const answers: string[] = [];
    const org = await api.post('/v2/orgs').set('Authorization', `Bearer ${token}`).send(ACME).expect(201);
    answers.push(org.text);
    answers.push((await api.get('/v2/orgs').set('Authorization', `Bearer ${token}`).expect(200)).text);
    answers.push((await api.patch(`/v2/orgs/${org.body.data.id}`).set('Authorization', `Bearer ${token}`).send({ contact: 'x' }).expect(200)).text);
    answers.push((await api.get('/v2/orgs').set('Authorization', `Bearer ${token}x`).expect(401)).text);
    answers.push((await api.get('/v2/meetings').set('Authorization', `Bearer ${token}`).expect(401)).text);
    const journal = await request(app).get('/_emulator/requests').expect(200);
    expect(journal.body.length).toBeGreaterThanOrEqual(5);
    const state = await request(app).get('/_emulator/state').expect(200);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...answers, journal.text, state.text, lines.join('')]) expect(text).not.toContain(token);
  });
});
