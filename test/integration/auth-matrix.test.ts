// The auth matrix: every v1 and v2 route of the route table × every kind of
// credential a client can get wrong → the documented status and message, and never another
// organization's data in any answer. The route list comes from the route table, so a new route
// is in the matrix without a change here; its success status is written out in
// test/helpers/success-status.ts.
//
//   v2 (docs/api-v2.md): Basic on every route; a participant token only on the routes the web SDK
//   calls (the recording routes, a meeting's livestream start, stop and read) and only for its
//   own meeting (403 for another meeting), 401 everywhere else.
//   v1 (docs/api-v1.md): only `Bearer <API key>`; any other credential is a 401.
//   The partner API (/v2/orgs, docs/api-v2.md): only `Bearer <partner token>`, which every other
//   route refuses (401); the partner owns every organization, so it alone may see them all.
//   Another organization's valid key reaches only that organization: the first organization's
//   ids answer 404 there, its lists and creations are its own.
//   RealtimeKit (docs/realtimekit.md): every v2 route again under
//   /client/v4/accounts/{account_id}/realtime/kit/{app_id}, and the apps routes; only
//   `Bearer <API token>` of the account in the path: a missing, malformed or wrong token (a
//   participant token included) is a 401, another account's token a 403.
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIdGenerator } from '../../src/core/ids.js';
import type { AnyRoute } from '../../src/http/route.js';
import { allRoutes } from '../../src/http/routes.js';
import { PRESET_BODY, addParticipant, createLivestream, createMeeting, createPreset, startRecording } from '../helpers/builders.js';
import { TOKEN_LIFETIME_MS } from '../helpers/documented.js';
import { successStatus } from '../helpers/success-status.js';
import { PARTICIPANT_TOKEN_ROUTES } from '../helpers/v2-routes.js';
import { API_KEY, BASIC, ORG_ID, basicAuth, bearer, fixtures, makeTestApp, type TestApp } from '../helpers/test-app.js';

const ROUTES = allRoutes('http://emulator.test').filter((r) => r.api === 'v1' || r.api === 'v2' || r.api === 'realtimekit');

/** The RealtimeKit prefixes, written out (docs/realtimekit.md), and the accounts of the world. */
const KIT = '/client/v4/accounts/{account_id}/realtime/kit';
const APP_PREFIX = `${KIT}/{app_id}`;
const ACCOUNT_A = '00000000000000000000000000000001';
const ACCOUNT_C = 'cccccccccccccccccccccccccccccccc';
const TOKEN_C = 'account-c-api-token';
/** A RealtimeKit twin's v2 route, by path: the one whose success status, ids and body it shares. */
const v2Name = (r: AnyRoute) => (r.path.startsWith(`${APP_PREFIX}/`) ? `${r.method} /v2${r.path.slice(APP_PREFIX.length)}` : `${r.method} ${r.path}`);
const routeName = (r: AnyRoute) => `${r.method} ${r.path}`;

const COLUMNS = [
  'no header',
  'malformed Basic',
  'wrong key',
  "another organization's key",
  'participant token for its own meeting',
  'participant token for another meeting',
  'participant token expired on the emulator clock',
  'participant token with a forged signature',
  'participant token with alg none',
  'participant token signed HS256 with the public key',
  'participant token of a deleted participant',
  'the partner token',
] as const;
// For a RealtimeKit route, "another organization's key" is another account's API token.
type Column = (typeof COLUMNS)[number];

const MESSAGES = {
  missing: 'Missing Authorization header',
  malformedBasic: 'Malformed Basic credentials; expected Authorization: Basic base64(<organization id>:<API key>)',
  wrongBasic: 'Invalid organization id or API key',
  tokenNotAccepted: 'Participant tokens are not accepted on this route; use Basic credentials',
  tokenInvalid: 'Invalid or expired participant token',
  otherMeeting: 'This participant token does not grant access to that meeting',
  v1Scheme: 'Expected Authorization: Bearer <API key>',
  v1Key: 'Invalid API key',
  kitScheme: 'Expected Authorization: Bearer <API token>',
  kitToken: 'Invalid API token',
  kitAccount: `This API token has no access to account ${ACCOUNT_A}`,
  partnerScheme: 'Expected Authorization: Bearer <partner token>',
  partnerToken: 'Invalid partner token',
  bearerOnV2: 'v2 expects Authorization: Basic base64(<organization id>:<API key>); Bearer is for v1 API keys and participant tokens',
};
const PARTNER_TOKEN = 'emulator-partner-token';

/** Markers of the first organization (A): its resources' ids and texts, its key, its stream key. */
interface World {
  t: TestApp;
  a: {
    m1: string;
    m2: string;
    host1: string;
    host2: string;
    deleted: string;
    recording: string;
    livestream: string;
    webhook: string;
    productCode: string;
    preset: string;
    session: string;
  };
  b: { id: string; apiKey: string; meeting: string };
  tokens: Record<'own' | 'otherMeeting' | 'expired' | 'forged' | 'algNone' | 'hs256' | 'deleted', string>;
  /** Strings that belong to A and must never reach anyone else. */
  aPrivate: string[];
  /** Strings of A's other meeting: not for a token of the first meeting either. */
  m2Private: string[];
}

async function buildWorld(): Promise<World> {
  // A second account (C) with a token and an app of its own: its token must not reach A's apps.
  const f = fixtures();
  f.accounts = [{ id: ACCOUNT_C, api_tokens: [TOKEN_C] }];
  f.organizations.push({ id: '00000000-0000-4000-8000-00000000000c', name: 'C app', api_key: 'c-app-api-key', account_id: ACCOUNT_C, products: [] });
  const t = makeTestApp({}, { fixtures: f });
  const m1 = await createMeeting(t.api, { title: 'A-PRIVATE-TITLE-ONE' });
  const m2 = await createMeeting(t.api, { title: 'A-PRIVATE-TITLE-TWO' });
  const host1 = await addParticipant(t.api, m1.id, { name: 'A-PRIVATE-HOST-ONE', custom_participant_id: 'a-host-1' });
  const host2 = await addParticipant(t.api, m2.id, { name: 'A-PRIVATE-HOST-TWO', custom_participant_id: 'a-host-2' });
  const deleted = await addParticipant(t.api, m1.id, { name: 'A-PRIVATE-GONE', custom_participant_id: 'a-gone' });
  await t.api.delete(`/v2/meetings/${m1.id}/participants/${deleted.id}`).set('Authorization', BASIC).expect(200);
  const recording = await startRecording(t.api, m1.id);
  const otherRecording = await startRecording(t.api, m2.id);
  t.advance(3_000); // the recorders join (default timings): the recordings may be stopped
  const livestream = await createLivestream(t.api, m1.id, { name: 'A-PRIVATE-STREAM' });
  const webhook = (
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'A-PRIVATE-HOOK', url: 'http://127.0.0.1:9/a-private-hook', events: ['meeting.started'] })
      .expect(201)
  ).body.data;
  const product = (
    await t.api
      .post('/api/v1/products')
      .set('Authorization', `Bearer ${API_KEY}`)
      .send({ name: 'A-PRIVATE-PRODUCT', brand: 'A-PRIVATE-BRAND', category_code: '701', product_id: 'APRIV1' })
      .expect(201)
  ).body;
  // The first host is in the first meeting: a LIVE session (the session history routes).
  const session = (await t.api.post(`/_emulator/meetings/${m1.id}/participants/${host1.id}/join`).expect(200)).body.session.id as string;
  const preset = await createPreset(t.api, { name: 'A-PRIVATE-PRESET' });
  const org = (await t.api.post('/_emulator/orgs').send({ name: 'Organization B' }).expect(201)).body as { id: string; api_key: string };
  const bMeeting = (await t.api.post('/v2/meetings').set('Authorization', basicAuth(org.id, org.api_key)).send({ title: 'B meeting' }).expect(201)).body.data;

  // Forgeries of the first host's token: a token the emulator did not sign is a 401, whatever it claims.
  const claims = decodeJwt(host1.token);
  const header = decodeProtectedHeader(host1.token);
  const [h, payload] = host1.token.split('.') as [string, string, string];
  const forger = createIdGenerator('forger-seed').rsaKey('participant-tokens');
  const forgedSig = (await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'RS256' }).sign(forger)).split('.')[2]!;
  // Expired on the emulator clock: the emulator's own signer, issued one lifetime ago, so that
  // exp = now. The same token a client holding it for 100 days has (auth.test.ts advances the
  // clock instead; here the clock stays put for the other columns).
  const expired = await t.deps.services.participants.tokens.sign(
    { orgId: ORG_ID, meetingId: m1.id, participantId: host1.id, presetId: String(claims.presetId) },
    t.now() - TOKEN_LIFETIME_MS,
  );
  const hs256 = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: header.kid! })
    .sign(new TextEncoder().encode(t.deps.keys.participantTokens.publicPem));
  const streamKey = String(livestream.stream_key);

  return {
    t,
    a: {
      m1: m1.id,
      m2: m2.id,
      host1: host1.id,
      host2: host2.id,
      deleted: deleted.id,
      recording: recording.id,
      livestream: livestream.id,
      webhook: webhook.id,
      productCode: product.svc_code,
      preset: preset.id,
      session,
    },
    b: { id: org.id, apiKey: org.api_key, meeting: bMeeting.id },
    tokens: {
      own: host1.token,
      otherMeeting: host2.token,
      expired,
      forged: `${h}.${payload}.${forgedSig}`,
      algNone: new UnsecuredJWT(claims).encode(),
      hs256,
      deleted: deleted.token,
    },
    aPrivate: [
      m1.id,
      m2.id,
      host1.id,
      host2.id,
      deleted.id,
      recording.id,
      otherRecording.id,
      livestream.id,
      webhook.id,
      product.svc_code,
      preset.id,
      session,
      'A-PRIVATE',
      'a-private-hook',
      'a-host-1',
      API_KEY,
      streamKey,
      host1.token,
    ],
    m2Private: [m2.id, host2.id, otherRecording.id, 'A-PRIVATE-TITLE-TWO', 'A-PRIVATE-HOST-TWO'],
  };
}

function authFor(r: AnyRoute, column: Column, w: World): string | undefined {
  const bearerKey = r.api === 'v1' || r.api === 'realtimekit';
  switch (column) {
    case 'no header':
      return undefined;
    case 'malformed Basic':
      return 'Basic !!not*base64!!';
    case 'wrong key':
      return bearerKey ? 'Bearer not-the-api-key' : basicAuth(ORG_ID, 'not-the-api-key');
    case "another organization's key":
      if (r.api === 'realtimekit') return `Bearer ${TOKEN_C}`;
      return bearerKey ? `Bearer ${w.b.apiKey}` : basicAuth(w.b.id, w.b.apiKey);
    case 'participant token for its own meeting':
      return bearer(w.tokens.own);
    case 'participant token for another meeting':
      return bearer(w.tokens.otherMeeting);
    case 'participant token expired on the emulator clock':
      return bearer(w.tokens.expired);
    case 'participant token with a forged signature':
      return bearer(w.tokens.forged);
    case 'participant token with alg none':
      return bearer(w.tokens.algNone);
    case 'participant token signed HS256 with the public key':
      return bearer(w.tokens.hs256);
    case 'participant token of a deleted participant':
      return bearer(w.tokens.deleted);
    case 'the partner token':
      return bearer(PARTNER_TOKEN);
  }
}

/** The route's URL in the world: every id is one of the first organization's (A). */
function urlOf(r: AnyRoute, w: World): string {
  const { a } = w;
  // A twin names A's account and app, then the ids of its v2 route.
  const kit = r.path.startsWith(`${APP_PREFIX}/`);
  const path = kit ? `/v2${r.path.slice(APP_PREFIX.length)}` : r.path.replace('{account_id}', ACCOUNT_A);
  const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (name === 'meeting_id') return a.m1;
    if (name === 'participant_id') return a.host1;
    if (name === 'svc_code') return a.productCode;
    if (name === 'livestream_id') return a.livestream;
    // Not A's id: any id answers 404 to another organization, which is all the matrix asks of this route.
    if (name === 'livestream-session-id') return a.livestream;
    if (name === 'org_id') return ORG_ID;
    if (name === 'preset_id') return a.preset;
    if (name === 'session_id') return a.session;
    // A peer is a participant in a session.
    if (name === 'peer_id') return a.host1;
    if (name !== 'id') throw new Error(`auth matrix: no world id for {${name}} in ${path}`);
    if (path.startsWith('/v2/meetings/')) return a.m1;
    if (path.startsWith('/v2/recordings/')) return a.recording;
    if (path.startsWith('/v2/livestreams/')) return a.livestream;
    if (path.startsWith('/v2/webhooks/')) return a.webhook;
    throw new Error(`auth matrix: no world id for {id} in ${path}`);
  });
  const full = kit ? `${KIT.replace('{account_id}', ACCOUNT_A)}/${ORG_ID}${url.slice('/v2'.length)}` : url;
  // The recording list is asked for the first meeting, so that a token of another meeting is a 403.
  return v2Name(r) === 'get /v2/recordings' ? `${full}?meeting_id=${a.m1}` : full;
}

/** A body the route accepts (so that only the credentials decide). */
function bodyOf(r: AnyRoute, w: World): Record<string, unknown> | undefined {
  if (!r.body) return undefined;
  switch (v2Name(r)) {
    case 'post /v2/recordings':
      return { meeting_id: w.a.m1, allow_multiple_recordings: true };
    case 'put /v2/recordings/{id}':
      return { action: 'stop' };
    case 'post /v2/recordings/track':
      return { meeting_id: w.a.m1, layers: { default: {} } };
    case 'post /v2/meetings/{meeting_id}/participants':
      return { preset_name: 'group_call_host', custom_participant_id: 'matrix' };
    case 'post /v2/webhooks':
    case 'put /v2/webhooks/{id}':
      return { name: 'matrix', url: 'http://127.0.0.1:9/matrix', events: ['meeting.ended'] };
    case 'post /v2/orgs':
      return { name: 'Matrix org', contact: '', website: 'https://matrix.example' };
    case 'post /v2/presets':
      return { ...PRESET_BODY, name: 'matrix' };
    case 'put /v2/presets/{preset_id}':
      return { ...PRESET_BODY, name: 'matrix_replaced' };
    case 'post /v2/meetings/{meeting_id}/active-session/kick':
    case 'post /v2/meetings/{meeting_id}/active-session/mute':
      return { participant_ids: [w.a.host1] };
    case 'post /v2/meetings/{meeting_id}/active-session/poll':
      return { question: 'Matrix?', options: ['yes', 'no'] };
    case 'post /api/v1/products':
    case 'post /v1/products':
      return { name: 'Matrix', brand: 'Matrix', category_code: '101', product_id: 'MATRIX1' };
    case `post ${KIT}/apps`:
      return { name: 'Matrix app' };
    default:
      return {};
  }
}

/**
 * Another organization's valid key: a route that names one of A's resources (a path id, or
 * meeting_id in the body of POST /v2/recordings and /v2/recordings/track) answers 404; any other route succeeds, within B.
 */
function otherOrgExpectation(r: AnyRoute): { status: number; message?: RegExp } {
  const namesAResource = r.path.includes('{') || routeName(r) === 'post /v2/recordings' || routeName(r) === 'post /v2/recordings/track';
  return namesAResource
    ? { status: 404, message: r.api === 'v1' ? /^No product found with code / : /^No \w+( \w+)? found with id / }
    : { status: successStatus(r) };
}

/** RealtimeKit: only the API token of the path's account; every other credential is refused before the route runs. */
function expectedKit(column: Column): { status: number; message?: string | RegExp } {
  if (column === 'no header') return { status: 401, message: MESSAGES.missing };
  if (column === 'malformed Basic') return { status: 401, message: MESSAGES.kitScheme };
  if (column === "another organization's key") return { status: 403, message: MESSAGES.kitAccount };
  // A wrong key, and every participant token: a Bearer value that is no account's API token.
  return { status: 401, message: MESSAGES.kitToken };
}

function expected(r: AnyRoute, column: Column): { status: number; message?: string | RegExp } {
  if (r.api === 'realtimekit') return expectedKit(column);
  if (column === 'no header') return { status: 401, message: MESSAGES.missing };
  if (r.auth === 'partner-bearer') {
    if (column === 'the partner token') return { status: successStatus(r) };
    // Every participant token is a Bearer value that is not the partner token.
    return { status: 401, message: column.startsWith('participant token') ? MESSAGES.partnerToken : MESSAGES.partnerScheme };
  }
  if (column === 'the partner token') return { status: 401, message: r.api === 'v1' ? MESSAGES.v1Key : MESSAGES.bearerOnV2 };
  if (r.api === 'v1') {
    if (column === 'malformed Basic') return { status: 401, message: MESSAGES.v1Scheme };
    if (column === "another organization's key") return otherOrgExpectation(r);
    // A wrong key, and every participant token: a Bearer value that is no organization's API key.
    return { status: 401, message: MESSAGES.v1Key };
  }
  if (column === 'malformed Basic') return { status: 401, message: MESSAGES.malformedBasic };
  if (column === 'wrong key') return { status: 401, message: MESSAGES.wrongBasic };
  if (column === "another organization's key") return otherOrgExpectation(r);
  if (r.auth !== 'basic-or-participant') return { status: 401, message: MESSAGES.tokenNotAccepted };
  if (column === 'participant token for its own meeting') return { status: successStatus(r) };
  if (column === 'participant token for another meeting') return { status: 403, message: MESSAGES.otherMeeting };
  return { status: 401, message: MESSAGES.tokenInvalid };
}

describe('the matrix covers the route table', () => {
  it('has every v1 and v2 route, and the token routes are the documented ones', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(32 + 28 + 2);
    expect(
      ROUTES.filter((r) => r.auth === 'basic-or-participant')
        .map(routeName)
        .sort(),
    ).toEqual([...PARTICIPANT_TOKEN_ROUTES].sort());
    expect(
      ROUTES.filter((r) => r.auth === 'partner-bearer')
        .map(routeName)
        .sort(),
    ).toEqual(['get /v2/orgs', 'get /v2/orgs/{org_id}', 'patch /v2/orgs/{org_id}', 'post /v2/orgs'].sort());
    expect(
      ROUTES.every((r) =>
        r.api === 'v1'
          ? r.auth === 'v1-bearer'
          : r.api === 'realtimekit'
            ? r.auth === 'account-token'
            : r.auth === 'basic' || r.auth === 'basic-or-participant' || r.auth === 'partner-bearer',
      ),
    ).toBe(true);
    // Every v2 route but the partner API's has its RealtimeKit twin in the matrix.
    const names = new Set(ROUTES.map(routeName));
    for (const r of ROUTES.filter((x) => x.api === 'v2' && x.auth !== 'partner-bearer'))
      expect(names).toContain(`${r.method} ${APP_PREFIX}${r.path.slice('/v2'.length)}`);
  });

  it("the leak markers are real: the first organization's own key sees them", async () => {
    const w = await buildWorld();
    const urls = ['/v2/meetings', '/v2/recordings', '/v2/livestreams', '/v2/webhooks', `/v2/meetings/${w.a.m1}/participants`];
    const seen = (await Promise.all(urls.map((u) => w.t.api.get(u).set('Authorization', BASIC).expect(200)))).map((r) => r.text).join(' ');
    for (const marker of [w.a.m1, w.a.m2, w.a.host1, w.a.recording, w.a.livestream, w.a.webhook, 'A-PRIVATE-TITLE-ONE', 'a-private-hook'])
      expect(seen).toContain(marker);
    const product = await w.t.api.get(`/v1/products/${w.a.productCode}`).set('Authorization', `Bearer ${API_KEY}`).expect(200);
    expect(product.text).toContain('A-PRIVATE-PRODUCT');
  });
});

describe.each(ROUTES.map(routeName))('%s', (name) => {
  const r = ROUTES.find((x) => routeName(x) === name)!;
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  });

  it.each(COLUMNS)('%s', async (column) => {
    const url = urlOf(r, w);
    const body = bodyOf(r, w);
    // One active livestream per meeting: the world's is stopped before the token starts one.
    if (column === 'participant token for its own meeting' && name === 'post /v2/meetings/{meeting_id}/livestreams')
      await w.t.api.post(`/v2/meetings/${w.a.m1}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    const req = w.t.api[r.method](url);
    const auth = authFor(r, column, w);
    if (auth !== undefined) req.set('Authorization', auth);
    if (body) req.send(body);
    const res = await req;
    const want = expected(r, column);
    expect(res.status, res.text.slice(0, 300)).toBe(want.status);
    if (want.status >= 400) {
      const message = (r.api === 'realtimekit' ? res.body.errors[0].message : res.body.error.message) as string;
      if (typeof want.message === 'string') expect(message).toBe(want.message);
      else if (want.message) expect(message).toMatch(want.message);
      if (r.api === 'v2') expect(res.body).toEqual({ success: false, error: { code: want.status, message: expect.any(String) } });
      else if (r.api === 'realtimekit')
        expect(res.body).toEqual({ success: false, errors: [{ code: want.status, message: expect.any(String) }], messages: [], result: null });
      else expect(res.body).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }

    // Never another organization's data; the credential itself is never echoed either. The partner
    // owns every organization: its answers on the partner API show them all, keys included.
    const sent = `${url} ${JSON.stringify(body ?? {})}`;
    const partnerSees = column === 'the partner token' && r.auth === 'partner-bearer';
    if (column === 'participant token for its own meeting') {
      for (const marker of w.m2Private) expect(res.text, `leaks ${marker}`).not.toContain(marker);
    } else if (!partnerSees) {
      for (const marker of w.aPrivate) if (!sent.includes(marker)) expect(res.text, `leaks ${marker}`).not.toContain(marker);
    }
    if (auth !== undefined && auth.length > 12 && column !== 'participant token for its own meeting') expect(res.text).not.toContain(auth.split(' ')[1]!);
  });
});
