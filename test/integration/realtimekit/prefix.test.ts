// The RealtimeKit API (docs/realtimekit.md): every v2 operation also answers under
// /client/v4/accounts/{account_id}/realtime/kit/{app_id} with an account's API token, on the same
// store; the account's apps; 401 / 403 / 404 in the Cloudflare API v4 error envelope; isolation
// between accounts and between apps; the journal's account and app; webhooks registered there
// carry rtk-* headers.
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { realtimeKitRoutes } from '../../../src/http/realtimekit/realtimekit.routes.js';
import { route, schemaOf, type Deferred } from '../../../src/http/route.js';
import { allRoutes } from '../../../src/http/routes.js';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { MISSING_ID, createMeeting } from '../../helpers/builders.js';
import { BASIC, ORG_ID, basicAuth, fixtures, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const ACCOUNT = '00000000000000000000000000000001';
const TOKEN = 'emulator-api-key';
const OTHER_ACCOUNT = '0123456789abcdef0123456789abcdef';
const OTHER_TOKEN = 'second-account-token';
const BEARER = `Bearer ${TOKEN}`;
const kit = (account = ACCOUNT) => `/client/v4/accounts/${account}/realtime/kit`;
const app = (appId = ORG_ID, account = ACCOUNT) => `${kit(account)}/${appId}`;

/** The Cloudflare API v4 error envelope, with the status as the error's code. */
const v4Error = (status: number, message: string | RegExp) => ({
  success: false,
  errors: [{ code: status, message: typeof message === 'string' ? message : expect.stringMatching(message) }],
  messages: [],
  result: null,
});

/** The default fixtures with a second account that holds one app of its own. */
function twoAccounts(): TestApp {
  const f = fixtures();
  f.accounts = [{ id: OTHER_ACCOUNT, name: 'Second', api_tokens: [OTHER_TOKEN] }];
  f.organizations.push({ id: '00000000-0000-4000-8000-000000000002', name: 'Second app', api_key: 'second-app-key', account_id: OTHER_ACCOUNT, products: [] });
  return makeTestApp({}, { fixtures: f });
}

describe('the prefix serves the v2 operations on the same store', () => {
  it('a meeting made under the prefix is the same meeting on /v2, and the other way round', async () => {
    const t = makeTestApp();
    const made = (await t.api.post(`${app()}/meetings`).set('Authorization', BEARER).send({ title: 'Through RealtimeKit' }).expect(201)).body;
    expect(made).toEqual({ success: true, data: expect.objectContaining({ title: 'Through RealtimeKit', status: 'ACTIVE' }) });
    const onV2 = (await t.api.get(`/v2/meetings/${made.data.id}`).set('Authorization', BASIC).expect(200)).body.data;
    expect(onV2).toEqual(made.data);

    const fromV2 = await createMeeting(t.api, { title: 'Through v2' });
    const list = (await t.api.get(`${app()}/meetings`).set('Authorization', BEARER).expect(200)).body;
    expect(list.data.map((m: { id: string }) => m.id)).toEqual([fromV2.id, made.data.id]);
    expect(list.paging).toEqual({ total_count: 2, start_offset: 1, end_offset: 2 });
  });

  it('participants, recordings and webhooks answer under the prefix as on /v2', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = (
      await t.api
        .post(`${app()}/meetings/${m.id}/participants`)
        .set('Authorization', BEARER)
        .send({ name: 'Ada', preset_name: 'group_call_host', custom_participant_id: 'ada' })
        .expect(201)
    ).body.data;
    expect(p).toEqual(expect.objectContaining({ name: 'Ada', custom_participant_id: 'ada', token: expect.any(String) }));
    const rec = (await t.api.post(`${app()}/recordings`).set('Authorization', BEARER).send({ meeting_id: m.id }).expect(200)).body.data;
    expect((await t.api.get(`/v2/recordings/${rec.id}`).set('Authorization', BASIC).expect(200)).body.data.meeting_id).toBe(m.id);
  });

  it('a v2 validation error is a 400 in the v4 envelope, with the v2 message', async () => {
    const t = makeTestApp();
    const res = await t.api.post(`${app()}/meetings`).set('Authorization', BEARER).send({ title: 5 }).expect(400);
    expect(res.body).toEqual(v4Error(400, /^BAD_REQUEST: /));
  });

  it('an unknown resource is a 404, a path no route serves a 404, both in the v4 envelope', async () => {
    const t = makeTestApp();
    expect((await t.api.get(`${app()}/meetings/${MISSING_ID}`).set('Authorization', BEARER).expect(404)).body).toEqual(
      v4Error(404, `No meeting found with id ${MISSING_ID}`),
    );
    expect((await t.api.get(`${app()}/no-such-thing`).set('Authorization', BEARER).expect(404)).body).toEqual(v4Error(404, /^Cannot GET /));
  });

  it('every v2 route of the route table but the partner API has its twin under the prefix, with the same method', () => {
    const routes = allRoutes('http://emulator.test');
    const twins = new Set(routes.filter((r) => r.api === 'realtimekit').map((r) => `${r.method} ${r.path}`));
    // The partner API manages organizations, not one app's resources: it has no twin.
    const partner = routes.filter((r) => r.api === 'v2' && r.auth === 'partner-bearer');
    expect(partner.map((r) => `${r.method} ${r.path}`)).toEqual(['get /v2/orgs', 'post /v2/orgs', 'get /v2/orgs/{org_id}', 'patch /v2/orgs/{org_id}']);
    for (const r of partner) expect(twins).not.toContain(`${r.method} /client/v4/accounts/{account_id}/realtime/kit/{app_id}${r.path.slice('/v2'.length)}`);
    const v2 = routes.filter((r) => r.api === 'v2' && r.auth !== 'partner-bearer');
    expect(v2.length).toBeGreaterThanOrEqual(28);
    for (const r of v2) expect(twins, r.path).toContain(`${r.method} /client/v4/accounts/{account_id}/realtime/kit/{app_id}${r.path.slice('/v2'.length)}`);
    expect(twins.size).toBe(v2.length + 2);
  });

  /** A v2 route as a contributor would add one (fresh, so its twin is made in the test). */
  const widget = (path: string, params: Deferred<z.ZodType<Record<string, unknown>>> = z.object({ id: z.uuid() })) =>
    route({
      method: 'get',
      path,
      api: 'v2',
      auth: 'basic',
      tag: 'Widgets',
      summary: 'A widget',
      params,
      responses: { 200: { description: 'The widget' } },
      handler: () => undefined,
    });

  it('a v2 route added to the table gets a twin under the prefix, described as the RealtimeKit form of its method and /v2 path', () => {
    const twin = realtimeKitRoutes([widget('/v2/widgets/{id}')]).find((r) => r.tag === 'RealtimeKit: Widgets')!;
    expect(twin.path).toBe('/client/v4/accounts/{account_id}/realtime/kit/{app_id}/widgets/{id}');
    // Most v2 routes have no description of their own: the twin's is then this sentence alone.
    const form = "The RealtimeKit form of GET /v2/widgets/{id}: the same operation on the same data (app id = organization id), with an account's API token.";
    expect(twin.description).toBe(form);
    const described = realtimeKitRoutes([{ ...widget('/v2/widgets/{id}'), description: 'Widgets are blue.' }]).find((r) => r.tag === 'RealtimeKit: Widgets')!;
    expect(described.description).toBe(`${form} Widgets are blue.`);
  });

  it('a v2 route declared outside /v2, or with path parameters that are not a z.object, stops the table from being built, naming the route', () => {
    expect(() => realtimeKitRoutes([widget('/widgets/{id}')])).toThrow('/widgets/{id}: a v2 route lives under /v2/');
    expect(() => realtimeKitRoutes([widget('/v2widgets/{id}')])).toThrow('/v2widgets/{id}: a v2 route lives under /v2/');
    expect(() => realtimeKitRoutes([widget('/v2/widgets/{id}', z.record(z.string(), z.string()))])).toThrow(
      'get /v2/widgets/{id}: path parameters must be a z.object to be extended',
    );
    // Given as a function (built when first needed), they are refused when the twin's are first built.
    const [twin] = realtimeKitRoutes([widget('/v2/widgets/{id}', () => z.record(z.string(), z.string()))]).filter((r) => r.tag === 'RealtimeKit: Widgets');
    expect(() => schemaOf(twin!.params!)).toThrow('get /v2/widgets/{id}: path parameters must be a z.object to be extended');
  });
});

describe('the served OpenAPI document', () => {
  it('shows every twin under a RealtimeKit tag, with the account and app parameters, an API token and the v4 error shape', async () => {
    const t = makeTestApp();
    const doc = (await t.api.get('/_emulator/openapi.json').expect(200)).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags: string[];
            security: unknown[];
            parameters: Array<{ name: string; in: string }>;
            description?: string;
            responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
          }
        >
      >;
    };
    const v2 = doc.paths['/v2/meetings/{id}']!.get!;
    const twin = doc.paths['/client/v4/accounts/{account_id}/realtime/kit/{app_id}/meetings/{id}']!.get!;
    expect(twin.tags).toEqual([`RealtimeKit: ${v2.tags[0]!}`]);
    expect(twin.security).toEqual([{ apiToken: [] }]);
    expect(twin.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:account_id', 'path:app_id', 'path:id']);
    expect(twin.description).toContain('GET /v2/meetings/{id}');
    expect(twin.responses['200']).toEqual(v2.responses['200']);
    expect(Object.keys(twin.responses['403']!.content!['application/json']!.schema.properties!)).toEqual(['success', 'errors', 'messages', 'result']);
    const apps = doc.paths['/client/v4/accounts/{account_id}/realtime/kit/apps']!;
    expect(Object.keys(apps).sort()).toEqual(['get', 'post']);
  });
});

describe('credentials: 401, 403, 404 in the v4 envelope', () => {
  const cases: Array<[string, string | undefined, string, number, string | RegExp]> = [
    ['no header', undefined, app(), 401, 'Missing Authorization header'],
    ['Basic credentials', BASIC, app(), 401, 'Expected Authorization: Bearer <API token>'],
    ['an empty Bearer', 'Bearer ', app(), 401, 'Expected Authorization: Bearer <API token>'],
    ['a wrong token', 'Bearer not-a-token', app(), 401, 'Invalid API token'],
    ["an organization's v2 API key of another organization", 'Bearer second-app-key', app(), 401, 'Invalid API token'],
    ["another account's path", BEARER, app(ORG_ID, OTHER_ACCOUNT), 403, `This API token has no access to account ${OTHER_ACCOUNT}`],
    ['an account that does not exist', BEARER, app(ORG_ID, 'ffffffffffffffffffffffffffffffff'), 403, /no access to account/],
    ['an unknown app', BEARER, app(MISSING_ID), 404, `No app found with id ${MISSING_ID}`],
    ["another account's app", BEARER, app('00000000-0000-4000-8000-000000000002'), 404, 'No app found with id 00000000-0000-4000-8000-000000000002'],
  ];
  it.each(cases)('%s', async (_name, auth, base, status, message) => {
    const t = twoAccounts();
    const req = t.api.get(`${base}/meetings`);
    if (auth !== undefined) req.set('Authorization', auth);
    const res = await req.expect(status);
    expect(res.body).toEqual(v4Error(status, message));
  });

  it("the second account's token reaches its own app, not the first account's data", async () => {
    const t = twoAccounts();
    await createMeeting(t.api, { title: 'FIRST-ACCOUNT-ONLY' });
    const other = (
      await t.api
        .get(`${app('00000000-0000-4000-8000-000000000002', OTHER_ACCOUNT)}/meetings`)
        .set('Authorization', `Bearer ${OTHER_TOKEN}`)
        .expect(200)
    ).body;
    expect(other).toEqual({ success: true, data: [], paging: { total_count: 0, start_offset: 0, end_offset: 0 } });
    const res = await t.api
      .get(`${app(ORG_ID, OTHER_ACCOUNT)}/meetings`)
      .set('Authorization', `Bearer ${OTHER_TOKEN}`)
      .expect(404);
    expect(res.text).not.toContain('FIRST-ACCOUNT-ONLY');
  });

  it('the token is never echoed, and the apps routes refuse the same way', async () => {
    const t = twoAccounts();
    const res = await t.api
      .get(`${kit(OTHER_ACCOUNT)}/apps`)
      .set('Authorization', BEARER)
      .expect(403);
    expect(res.text).not.toContain(TOKEN);
    expect((await t.api.get(`${kit()}/apps`).expect(401)).body).toEqual(v4Error(401, 'Missing Authorization header'));
  });
});

describe('apps', () => {
  it('lists the account’s apps, oldest first, and creates one that is a new organization of the account', async () => {
    const t = twoAccounts();
    const listed = (await t.api.get(`${kit()}/apps`).set('Authorization', BEARER).expect(200)).body;
    expect(listed).toEqual({
      success: true,
      data: [{ id: ORG_ID, name: 'Emulator Org', created_at: '2026-01-01T00:00:00.000Z' }],
      paging: { total_count: 1, start_offset: 1, end_offset: 1 },
    });
    t.advance(60_000);
    const made = (await t.api.post(`${kit()}/apps`).set('Authorization', BEARER).send({ name: 'Staging' }).expect(201)).body;
    expect(made).toEqual({ success: true, data: { app: { id: expect.any(String), name: 'Staging', created_at: '2026-01-01T00:01:00.000Z' } } });
    const appId = made.data.app.id as string;
    // The new app works under the prefix at once, and it is an organization with the default presets.
    const meeting = (
      await t.api
        .post(`${app(appId)}/meetings`)
        .set('Authorization', BEARER)
        .send({ title: 'In staging' })
        .expect(201)
    ).body.data;
    await t.api
      .post(`${app(appId)}/meetings/${meeting.id}/participants`)
      .set('Authorization', BEARER)
      .send({ preset_name: 'group_call_host', custom_participant_id: 'x' })
      .expect(201);
    const orgs = (await t.api.get('/_emulator/orgs').expect(200)).body as Array<{ id: string; account_id: string }>;
    expect(orgs.find((o) => o.id === appId)).toEqual({ id: appId, name: 'Staging', account_id: ACCOUNT });
    // Not the other account's.
    const theirs = (
      await t.api
        .get(`${kit(OTHER_ACCOUNT)}/apps`)
        .set('Authorization', `Bearer ${OTHER_TOKEN}`)
        .expect(200)
    ).body.data;
    expect(theirs.map((a: { id: string }) => a.id)).toEqual(['00000000-0000-4000-8000-000000000002']);
  });

  it('pages, searches and sorts', async () => {
    const t = makeTestApp();
    for (const name of ['Alpha', 'Beta', 'alphabet']) {
      t.advance(1_000);
      await t.api.post(`${kit()}/apps`).set('Authorization', BEARER).send({ name }).expect(201);
    }
    const names = async (query: string) =>
      ((await t.api.get(`${kit()}/apps?${query}`).set('Authorization', BEARER).expect(200)).body.data as Array<{ name: string }>).map((a) => a.name);
    expect(await names('sort_order=DESC')).toEqual(['alphabet', 'Beta', 'Alpha', 'Emulator Org']);
    expect(await names('search=ALPHA')).toEqual(['Alpha', 'alphabet']);
    expect(await names('per_page=2&page_no=2')).toEqual(['Beta', 'alphabet']);
    await t.api.get(`${kit()}/apps?sort_order=sideways`).set('Authorization', BEARER).expect(400);
    await t.api.post(`${kit()}/apps`).set('Authorization', BEARER).send({}).expect(400);
  });

  it('lists apps oldest first by their created_at even when the document lists them in another order', async () => {
    const f = fixtures();
    // The default organization has no created_at: it was made when the emulator loaded (2026-01-01).
    f.organizations.push(
      { id: '00000000-0000-4000-8000-000000000003', name: 'Summer', api_key: 'summer-app-key', created_at: '2025-06-01T00:00:00.000Z', products: [] },
      { id: '00000000-0000-4000-8000-000000000004', name: 'Spring', api_key: 'spring-app-key', created_at: '2025-03-01T00:00:00.000Z', products: [] },
      { id: '00000000-0000-4000-8000-000000000005', name: 'Autumn', api_key: 'autumn-app-key', created_at: '2025-09-01T00:00:00.000Z', products: [] },
    );
    const t = makeTestApp({}, { fixtures: f });
    const names = async (query: string) =>
      ((await t.api.get(`${kit()}/apps${query}`).set('Authorization', BEARER).expect(200)).body.data as Array<{ name: string }>).map((a) => a.name);
    expect(await names('')).toEqual(['Spring', 'Summer', 'Autumn', 'Emulator Org']);
    expect(await names('?sort_order=DESC')).toEqual(['Emulator Org', 'Autumn', 'Summer', 'Spring']);
  });

  it('an organization made through the control API belongs to the account named, or the default one', async () => {
    const t = twoAccounts();
    const theirs = (await t.api.post('/_emulator/orgs').send({ name: 'worker', account_id: OTHER_ACCOUNT }).expect(201)).body;
    expect(theirs).toEqual(expect.objectContaining({ name: 'worker', account_id: OTHER_ACCOUNT }));
    const ours = (await t.api.post('/_emulator/orgs').send({}).expect(201)).body;
    expect(ours.account_id).toBe(ACCOUNT);
    await t.api
      .get(`${app(theirs.id, OTHER_ACCOUNT)}/meetings`)
      .set('Authorization', `Bearer ${OTHER_TOKEN}`)
      .expect(200);
    await t.api
      .get(`${app(theirs.id)}/meetings`)
      .set('Authorization', BEARER)
      .expect(404);
    expect((await t.api.post('/_emulator/orgs').send({ account_id: 'ffffffffffffffffffffffffffffffff' }).expect(404)).body.error.message).toBe(
      'No account found with id ffffffffffffffffffffffffffffffff',
    );
  });
});

describe('state, journal, webhooks', () => {
  it('a state export keeps the accounts, the account of every organization and the apps made since; an import restores them', async () => {
    const t = twoAccounts();
    const made = (
      await t.api
        .post(`${kit(OTHER_ACCOUNT)}/apps`)
        .set('Authorization', `Bearer ${OTHER_TOKEN}`)
        .send({ name: 'Later' })
        .expect(201)
    ).body.data.app;
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    expect(state.accounts).toEqual([
      { id: OTHER_ACCOUNT, name: 'Second', api_tokens: [OTHER_TOKEN] },
      { id: ACCOUNT, name: 'Emulator Account', api_tokens: [TOKEN] },
    ]);
    const fresh = makeTestApp();
    await fresh.api.put('/_emulator/state').send(state).expect(200);
    const listed = (
      await fresh.api
        .get(`${kit(OTHER_ACCOUNT)}/apps`)
        .set('Authorization', `Bearer ${OTHER_TOKEN}`)
        .expect(200)
    ).body.data;
    expect(listed.map((a: { id: string }) => a.id)).toEqual(['00000000-0000-4000-8000-000000000002', made.id]);
    expect((await fresh.api.get('/_emulator/state').expect(200)).text).toBe((await t.api.get('/_emulator/state').expect(200)).text);
  });

  it('an account the document gives no name is named after the last 8 digits of its id; the export imports again', async () => {
    const f = fixtures();
    f.accounts = [{ id: OTHER_ACCOUNT, api_tokens: [OTHER_TOKEN] }];
    const t = makeTestApp({}, { fixtures: f });
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    expect(state.accounts).toEqual([
      { id: OTHER_ACCOUNT, name: 'Account 89abcdef', api_tokens: [OTHER_TOKEN] },
      { id: ACCOUNT, name: 'Emulator Account', api_tokens: [TOKEN] },
    ]);
    await makeTestApp().api.put('/_emulator/state').send(state).expect(200);
  });

  it('a fixtures file without accounts keeps working: the default account holds every organization', async () => {
    const f = fixtures();
    expect(f.accounts).toBeUndefined();
    const t = makeTestApp({}, { fixtures: f });
    await t.api.get(`${app()}/meetings`).set('Authorization', BEARER).expect(200);
  });

  it('the journal shows the account and app of a prefixed request, also of a refused one', async () => {
    const t = twoAccounts();
    await t.api.get(`${app()}/meetings`).set('Authorization', BEARER).expect(200);
    await t.api
      .get(`${app(ORG_ID, OTHER_ACCOUNT)}/meetings`)
      .set('Authorization', BEARER)
      .expect(403);
    await t.api.get(`${kit()}/apps`).set('Authorization', BEARER).expect(200);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    const journal = (await t.api.get('/_emulator/requests').expect(200)).body as Array<Record<string, unknown>>;
    expect(journal.map((e) => [e.status, e.org_id, e.account_id, e.app_id])).toEqual([
      [200, ORG_ID, null, null],
      [200, null, ACCOUNT, null],
      [403, null, OTHER_ACCOUNT, ORG_ID],
      [200, ORG_ID, ACCOUNT, ORG_ID],
    ]);
    expect(JSON.stringify(journal)).not.toContain(TOKEN);
  });

  it('a webhook registered under the prefix is delivered with rtk-* headers, one registered on /v2 with dyte-* ones; both verify with the published key', async () => {
    const transport = new RecordingTransport();
    const t = makeTestApp();
    t.deps.webhooks.outbox.useTransport(transport);
    const body = { name: 'hook', events: ['meeting.started'] };
    const rtk = (
      await t.api
        .post(`${app()}/webhooks`)
        .set('Authorization', BEARER)
        .send({ ...body, url: 'http://127.0.0.1:9/rtk' })
        .expect(201)
    ).body.data;
    const v2 = (
      await t.api
        .post('/v2/webhooks')
        .set('Authorization', basicAuth())
        .send({ ...body, url: 'http://127.0.0.1:9/v2' })
        .expect(201)
    ).body.data;
    const m = await createMeeting(t.api);
    const p = (
      await t.api
        .post(`/v2/meetings/${m.id}/participants`)
        .set('Authorization', BASIC)
        .send({ preset_name: 'group_call_host', custom_participant_id: 'h' })
        .expect(201)
    ).body.data;
    await t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/join`).expect(200);
    await t.deps.webhooks.outbox.idle();
    const key = createPublicKey((await t.api.get('/.well-known/webhooks.json').expect(200)).body.public_key);
    const byUrl = new Map(transport.requests.map((r) => [r.url, r]));
    const toRtk = byUrl.get('http://127.0.0.1:9/rtk')!;
    const toV2 = byUrl.get('http://127.0.0.1:9/v2')!;
    expect(
      Object.keys(toRtk.headers)
        .filter((h) => h.startsWith('rtk-') || h.startsWith('dyte-'))
        .sort(),
    ).toEqual(['rtk-signature', 'rtk-uuid', 'rtk-webhook-id']);
    expect(
      Object.keys(toV2.headers)
        .filter((h) => h.startsWith('rtk-') || h.startsWith('dyte-'))
        .sort(),
    ).toEqual(['dyte-signature', 'dyte-uuid', 'dyte-webhook-id']);
    expect(toRtk.headers['rtk-webhook-id']).toBe(rtk.id);
    expect(toV2.headers['dyte-webhook-id']).toBe(v2.id);
    expect(verify('sha256', toRtk.body, key, Buffer.from(toRtk.headers['rtk-signature']!, 'base64'))).toBe(true);
    expect(verify('sha256', toV2.body, key, Buffer.from(toV2.headers['dyte-signature']!, 'base64'))).toBe(true);
    // The record remembers it across a state export and import.
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    expect(state.organizations[0].webhooks.map((w: { registered_through: string }) => w.registered_through)).toEqual(['realtimekit', 'v2']);
    // A PUT through v2 does not change who registered it.
    await t.api
      .put(`/v2/webhooks/${rtk.id}`)
      .set('Authorization', BASIC)
      .send({ ...body, url: 'http://127.0.0.1:9/rtk2' })
      .expect(200);
    expect(t.deps.services.webhooks.get(ORG_ID, rtk.id).registeredThrough).toBe('realtimekit');
  });
});
