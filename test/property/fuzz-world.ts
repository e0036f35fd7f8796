// The world the property tests fire at, how one generated request is sent, and the invariants
// every answer must keep:
//   - never a 5xx;
//   - an error is in the API's own shape: the v2 envelope for /v2 and unknown routes,
//     {"error":{"code","message"}} for v1, the control API and media, Cloudflare's v4 envelope
//     for the RealtimeKit routes under /client;
//   - a method no route serves on a path that routes serve with other methods is a 405 whose
//     Allow header lists exactly those methods (HEAD with GET); a path no route serves is a 404;
//   - a refused request (4xx) leaves GET /_emulator/state byte-identical;
//   - Object.prototype (and Array.prototype) keep their keys, and ({}).polluted stays undefined;
//   - storage secrets never come back (answer, state, journal, webhooks), nor the Authorization sent;
//   - every answer matches the served OpenAPI document (the validating `api` of makeTestApp).
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from './fuzz-config.js';
import { z } from 'zod';
import { schemaOf, type AnyRoute, type Method } from '../../src/http/route.js';
import { allRoutes } from '../../src/http/routes.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { PRESET_BODY, addParticipant, createLivestream, createMeeting, recordingAction, startRecording } from '../helpers/builders.js';
import { API_KEY, BASIC, basicAuth, bearer, makeTestApp, type TestApp } from '../helpers/test-app.js';
import {
  CONTENT_ENCODINGS,
  CONTENT_TYPES,
  MAX_URL_BYTES,
  adversarialString,
  headerSafe,
  jsonValue,
  nested,
  objectPaths,
  pollutionPayload,
  queryPair,
  rawSegment,
  setAt,
  toJsonText,
  RawJson,
  type JsonLike,
} from './arbitraries.js';

export const ROUTES: AnyRoute[] = allRoutes('http://emulator.test');
export const routeName = (r: Pick<AnyRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;
export const routeByName = (name: string) => ROUTES.find((r) => routeName(r) === name)!;

/** The RealtimeKit prefixes (docs/realtimekit.md) and the default account, written out. */
const KIT = '/client/v4/accounts/{account_id}/realtime/kit';
const KIT_APP = `${KIT}/{app_id}`;
export const DEFAULT_ACCOUNT = '00000000000000000000000000000001';
/** A RealtimeKit twin as its v2 route (same ids, same valid body); any other route as itself. */
const asV2 = (r: AnyRoute): AnyRoute => (r.path.startsWith(`${KIT_APP}/`) ? { ...r, path: `/v2${r.path.slice(KIT_APP.length)}` } : r);
const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

// --- the world --------------------------------------------------------------------------------

export interface WorldIds {
  orgId: string;
  meetingId: string;
  participantId: string;
  token: string;
  recordingId: string;
  /** An UPLOADED recording: its media links are valid. */
  uploadedId: string;
  downloadPath: string;
  downloadQuery: string;
  livestreamId: string;
  webhookId: string;
  deliveryId: string;
  productCode: string;
  other: { orgId: string; apiKey: string; meetingId: string; recordingId: string };
}

export interface World {
  t: TestApp;
  /** Where webhooks go: recorded, never sent. */
  transport: RecordingTransport;
  ids: WorldIds;
  /** The state export right after the world was built; restored after every accepted change. */
  pristine: string;
  /** The state export as it stands now. */
  current: string;
}

async function stateText(t: TestApp): Promise<string> {
  return (await t.api.get('/_emulator/state').expect(200)).text;
}

/**
 * Two organizations with a resource of every kind: meetings, a participant holding a token, an
 * INVOKED and an UPLOADED recording, a LIVE livestream, a webhook with deliveries (to a recording
 * transport: no request ever leaves the process), products.
 */
export async function buildFuzzWorld(): Promise<World> {
  const t = makeTestApp();
  const transport = new RecordingTransport();
  t.deps.webhooks.outbox.useTransport(transport);
  const webhook = await t.api
    .post('/v2/webhooks')
    .set('Authorization', BASIC)
    .send({ name: 'fuzz', url: 'http://127.0.0.1:9/fuzz', events: ['recording.statusUpdate', 'livestreaming.statusUpdate'] })
    .expect(201);
  const meeting = await createMeeting(t.api, { title: 'Fuzz world', recording_config: { codec: 'H264' } });
  const participant = await addParticipant(t.api, meeting.id, { name: 'Host', custom_participant_id: 'host' });
  const uploaded = await startRecording(t.api, meeting.id);
  const livestream = await createLivestream(t.api, meeting.id);
  t.advance(6_000);
  await recordingAction(t.api, uploaded.id, 'stop');
  t.advance(60_000);
  const recording = await startRecording(t.api, meeting.id);
  const done = (await t.api.get(`/v2/recordings/${uploaded.id}`).set('Authorization', BASIC).expect(200)).body.data;
  const download = new URL(done.download_url as string);
  const org = (await t.api.post('/_emulator/orgs').send({ name: 'other' }).expect(201)).body as { id: string; api_key: string };
  const otherAuth = basicAuth(org.id, org.api_key);
  const otherMeeting = (await t.api.post('/v2/meetings').set('Authorization', otherAuth).send({ title: 'Other org' }).expect(201)).body.data;
  const otherRecording = (await t.api.post('/v2/recordings').set('Authorization', otherAuth).send({ meeting_id: otherMeeting.id }).expect(200)).body.data;
  await t.deps.webhooks.outbox.idle();
  const deliveries = (await t.api.get('/_emulator/webhooks/deliveries').expect(200)).body.deliveries as Array<{ id: string }>;
  const ids: WorldIds = {
    orgId: '00000000-0000-4000-8000-000000000001',
    meetingId: meeting.id,
    participantId: participant.id,
    token: participant.token,
    recordingId: recording.id,
    uploadedId: uploaded.id,
    downloadPath: download.pathname,
    downloadQuery: download.search.slice(1),
    livestreamId: livestream.id,
    webhookId: webhook.body.data.id,
    deliveryId: deliveries[0]!.id,
    productCode: '101-COLDBREW330',
    other: { orgId: org.id, apiKey: org.api_key, meetingId: otherMeeting.id, recordingId: otherRecording.id },
  };
  const pristine = await stateText(t);
  return { t, transport, ids, pristine, current: pristine };
}

/** The world id a path parameter names, by route and parameter. */
function worldParam(r: AnyRoute, param: string, ids: WorldIds, other: boolean): string {
  const p = asV2(r).path;
  if (param === 'account_id') return DEFAULT_ACCOUNT;
  if (param === 'app_id') return other ? ids.other.orgId : ids.orgId;
  if (param === 'meeting_id') return other ? ids.other.meetingId : ids.meetingId;
  if (param === 'participant_id') return ids.participantId;
  if (param === 'recording_id') return ids.uploadedId;
  if (param === 'livestream_id') return ids.livestreamId;
  if (param === 'svc_code') return ids.productCode;
  // The fixture participant preset: the other organization has presets of its own ids.
  if (param === 'preset_id') return '00000000-0000-4000-8000-0000000000a2';
  if (param === 'file')
    return ids.downloadPath
      .split('/')
      .pop()!
      .replace(/\.mp4$/, '');
  if (param === 'seq') return '0';
  if (param === 'org_id') return other ? ids.other.orgId : ids.orgId;
  if (p.includes('/recordings/')) return other ? ids.other.recordingId : ids.recordingId;
  if (p.includes('/livestreams/')) return ids.livestreamId;
  if (p.startsWith('/v2/webhooks/')) return ids.webhookId;
  if (p.includes('/deliveries/')) return ids.deliveryId;
  if (p.startsWith('/_emulator/orgs/')) return other ? ids.other.orgId : ids.orgId;
  return other ? ids.other.meetingId : ids.meetingId;
}

/** The storage credentials of the valid recording body: write-only, so they must never come back. */
export const STORAGE_SECRETS = ['AKIA-FUZZ-ACCESS-KEY', 'FUZZ-SECRET-KEY-0123456789'] as const;

/** A body the route accepts in the world: the base that mutations start from. */
export function validBody(r: AnyRoute, w: World): JsonLike {
  const { ids } = w;
  switch (routeName(asV2(r))) {
    case 'post /v2/meetings':
    case 'patch /v2/meetings/{id}':
    case 'put /v2/meetings/{id}':
      return { title: 'Fuzz', preferred_region: 'eu-central-1', record_on_start: false, recording_config: { codec: 'H264', nested: { a: [1, 2] } } };
    case 'post /v2/presets':
      return { ...PRESET_BODY, name: 'fuzz_preset' };
    case 'patch /v2/presets/{preset_id}':
      return { name: 'fuzz_renamed', config: { view_type: 'WEBINAR' }, permissions: { media: { video: { can_produce: 'NOT_ALLOWED' } } } };
    case 'post /v2/meetings/{meeting_id}/participants':
      return { name: 'Fuzz', preset_name: 'group_call_host', custom_participant_id: 'fuzz', picture: 'https://example.test/p.png' };
    case 'patch /v2/meetings/{meeting_id}/participants/{participant_id}':
      return { name: 'Renamed' };
    case 'post /v2/recordings':
      // STORAGE_SECRETS: write-only, they must never come back anywhere.
      return {
        meeting_id: ids.meetingId,
        allow_multiple_recordings: true,
        storage_config: { type: 'aws', access_key: STORAGE_SECRETS[0], secret_key: STORAGE_SECRETS[1], bucket: 'b', region: 'us-east-1', path: 'p' },
        video_config: { codec: 'H264' },
        max_seconds: 600,
      };
    case 'post /v2/recordings/track':
      return {
        meeting_id: ids.meetingId,
        layers: {
          default: {
            file_name_prefix: 'fuzz',
            outputs: [
              { type: 'DYTE_BUCKET' },
              { type: 'STORAGE_CONFIG', storage_config: { type: 'aws', access_key: STORAGE_SECRETS[0], secret: STORAGE_SECRETS[1], bucket: 'b' } },
            ],
          },
        },
        max_seconds: '600',
      };
    case 'put /v2/recordings/{id}':
      return { action: 'stop' };
    case 'post /v2/meetings/{meeting_id}/livestreams':
      return { name: 'Fuzz stream' };
    case 'post /v2/webhooks':
    case 'put /v2/webhooks/{id}':
      return { name: 'Fuzz hook', url: 'http://127.0.0.1:9/other', events: ['meeting.started'] };
    case 'patch /v2/webhooks/{id}':
      return { enabled: false };
    case 'post /v2/orgs':
      return { name: 'Fuzz org', contact: '778-330-2389', website: 'https://fuzz.example', feature_flags: ['f'], preferred_region: 'us-east-1' };
    case 'patch /v2/orgs/{org_id}':
      return { contact: 'fuzz', feature_flags: [] };
    case 'post /api/v1/products':
    case 'post /v1/products':
      return {
        name: 'Fuzz',
        brand: 'Fuzz',
        category_code: '701',
        product_id: 'FUZZ1',
        description: 'd',
        attributes: { color: 'red', carbon_footprint: '1 kgCO2e' },
      };
    case 'post /_emulator/clock/advance':
      return { ms: 1_000 };
    case 'put /_emulator/clock':
      return { now: '2026-01-02T00:00:00Z' };
    case 'patch /_emulator/simulator':
      return { recording: { mode: 'manual', start_delay_ms: 10 }, livestream: { viewers: 2 } };
    case 'post /_emulator/recordings/{id}/transition':
      return { to: 'ERRORED', reason: 'fuzz' };
    case 'post /_emulator/livestreams/{id}/transition':
      return { to: 'ERRORED' };
    case 'post /_emulator/orgs':
      return { name: 'fuzz org' };
    case `post ${KIT}/apps`:
      return { name: 'fuzz app' };
    case 'post /_emulator/faults':
      return { path: '/v2/meetings', status: 418, count: 1 };
    case 'put /_emulator/state':
      return JSON.parse(w.pristine) as JsonLike;
    default:
      return {};
  }
}

/** The field names a route's schemas know (body, query), at any depth: fuzzed keys favour them. */
export function schemaKeys(r: AnyRoute): string[] {
  const keys = new Set<string>();
  const walk = (s: unknown): void => {
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    for (const [k, v] of Object.entries((o.properties as Record<string, unknown>) ?? {})) {
      keys.add(k);
      walk(v);
    }
    walk(o.items);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const v of (o[key] as unknown[]) ?? []) walk(v);
  };
  for (const schema of [r.body, r.query]) if (schema) walk(z.toJSONSchema(schemaOf(schema), { io: 'input', unrepresentable: 'any' }));
  return [...keys];
}

// --- requests ---------------------------------------------------------------------------------

export type ParamChoice = { kind: 'world' } | { kind: 'other-org' } | { kind: 'raw'; value: string };
export type AuthChoice =
  'right' | 'none' | 'basic' | 'token' | 'v1-key' | 'other-org' | 'wrong-key' | 'malformed-basic' | 'bearer-empty' | 'huge' | { raw: string };
export type BodyChoice =
  | { kind: 'none' }
  | { kind: 'valid' }
  | { kind: 'any'; value: JsonLike }
  | { kind: 'mutate'; pick: number; value: JsonLike }
  | { kind: 'pollute'; pick: number; payload: JsonLike }
  | { kind: 'deep'; pick: number; levels: number }
  | { kind: 'huge'; bytes: number }
  | { kind: 'text'; text: string };

export interface FuzzRequest {
  method: Method;
  params: Record<string, ParamChoice>;
  query: string[];
  auth: AuthChoice;
  contentType: string;
  encoding: (typeof CONTENT_ENCODINGS)[number] | null;
  body: BodyChoice;
  range: string | null;
}

const paramNames = (r: AnyRoute) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

const paramChoice: fc.Arbitrary<ParamChoice> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<ParamChoice>({ kind: 'world' }) },
  { weight: 1, arbitrary: fc.constant<ParamChoice>({ kind: 'other-org' }) },
  { weight: 3, arbitrary: rawSegment.map<ParamChoice>((value) => ({ kind: 'raw', value })) },
);

const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<AuthChoice>('right') },
  {
    weight: 5,
    arbitrary: fc.constantFrom<AuthChoice>('none', 'basic', 'token', 'v1-key', 'other-org', 'wrong-key', 'malformed-basic', 'bearer-empty', 'huge'),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('Basic ', 'Bearer ', 'basic ', 'Token ', '', 'Basic', 'Bearer\t'),
        adversarialString.filter((s) => s.length < 4_000),
      )
      .map<AuthChoice>(([scheme, rest]) => ({ raw: headerSafe(`${scheme}${rest}`) })),
  },
);

export const bodyChoice = (keys: readonly string[]): fc.Arbitrary<BodyChoice> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<BodyChoice>({ kind: 'valid' }) },
    { weight: 1, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
    { weight: 4, arbitrary: jsonValue(keys).map<BodyChoice>((value) => ({ kind: 'any', value })) },
    {
      weight: 6,
      arbitrary: fc.record({ pick: fc.nat(), value: fc.oneof(jsonValue(keys), adversarialString) }).map<BodyChoice>((b) => ({ kind: 'mutate', ...b })),
    },
    { weight: 4, arbitrary: fc.record({ pick: fc.nat(), payload: pollutionPayload }).map<BodyChoice>((b) => ({ kind: 'pollute', ...b })) },
    { weight: 2, arbitrary: fc.record({ pick: fc.nat(), levels: fc.integer({ min: 28, max: 36 }) }).map<BodyChoice>((b) => ({ kind: 'deep', ...b })) },
    { weight: 1, arbitrary: fc.integer({ min: -64, max: 64 }).map<BodyChoice>((d) => ({ kind: 'huge', bytes: 1024 * 1024 + d })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            '',
            ' ',
            '{',
            '}',
            '{"a":1}}',
            '{"a":1,}',
            "{'a':1}",
            '[',
            'nul',
            '{"__proto__":',
            '\u0000',
            '\ufeff{}',
            '{"a":"\\ud800"}',
            '{"a":1,"a":2}',
            '{"title":"x","title":{"$gt":""}}',
          ),
          fc.string({ unit: 'binary', maxLength: 40 }),
        )
        .map<BodyChoice>((text) => ({ kind: 'text', text })),
    },
  );

export function requestArb(r: AnyRoute, opts: { allMethods?: boolean } = {}): fc.Arbitrary<FuzzRequest> {
  const keys = schemaKeys(r);
  const params = Object.fromEntries(paramNames(r).map((p) => [p, paramChoice]));
  return fc.record({
    method: opts.allMethods
      ? fc.oneof({ weight: 8, arbitrary: fc.constant(r.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) })
      : fc.constant(r.method),
    params: fc.record(params),
    query: fc.array(queryPair(keys.length > 0 ? keys : ['q']), { maxLength: 5 }),
    auth: authChoice,
    contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
    encoding: fc.oneof({ weight: 10, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_ENCODINGS) }),
    // Routes without a body get one too: it must be ignored, whatever it is.
    body: bodyChoice(keys),
    range:
      r.api === 'media'
        ? fc.oneof(fc.constant(null), fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=99999999-', 'bytes=5-1', 'bytes=0-1,2-3', 'items=0-1', 'bytes=abc'))
        : fc.constant(null),
  });
}

function authHeader(r: AnyRoute, choice: AuthChoice, ids: WorldIds): string | undefined {
  if (typeof choice === 'object') return choice.raw;
  switch (choice) {
    case 'right':
      if (r.auth === 'partner-bearer') return 'Bearer emulator-partner-token';
      // The default account's API token is the default organization's key (docs/realtimekit.md).
      return r.auth === 'v1-bearer' || r.auth === 'account-token' ? `Bearer ${API_KEY}` : r.auth === 'none' ? undefined : BASIC;
    case 'none':
      return undefined;
    case 'basic':
      return BASIC;
    case 'token':
      return bearer(ids.token);
    case 'v1-key':
      return `Bearer ${API_KEY}`;
    case 'other-org':
      return r.auth === 'v1-bearer' ? `Bearer ${ids.other.apiKey}` : basicAuth(ids.other.orgId, ids.other.apiKey);
    case 'wrong-key':
      return basicAuth(ids.orgId, 'not-the-key');
    case 'malformed-basic':
      return 'Basic !!not*base64!!';
    case 'bearer-empty':
      return 'Bearer ';
    case 'huge':
      return `Basic ${'QUFB'.repeat(2_000)}`;
  }
}

/** The body's JSON text (or raw text), for the route's valid body as a base. */
export function bodyText(choice: BodyChoice, base: JsonLike): string | null {
  const paths = objectPaths(base);
  const at = (pick: number) => paths[pick % paths.length]!;
  switch (choice.kind) {
    case 'none':
      return null;
    case 'valid':
      return toJsonText(base);
    case 'any':
      return toJsonText(choice.value);
    case 'mutate':
      return toJsonText(setAt(base, at(choice.pick), choice.value));
    case 'pollute': {
      // The payload's keys go into the object at the chosen position (its other keys stay), so a
      // valid body carries `__proto__`/`constructor` right next to the fields it is validated by.
      const path = at(choice.pick);
      let v = base;
      for (const [k, value] of Object.entries(Object.getOwnPropertyDescriptors(choice.payload as object)).map(([k, d]) => [k, d.value as JsonLike] as const)) {
        v = setAt(v, [...path, k], value);
      }
      return toJsonText(v);
    }
    case 'deep': {
      const path = at(choice.pick);
      return toJsonText(setAt(base, path, nested(Math.max(1, choice.levels - path.length), ['a', 'b', '__proto__', 'c'])));
    }
    case 'huge': {
      const shell = toJsonText(setAt(base, ['title'], ''));
      return toJsonText(setAt(base, ['title'], new RawJson(JSON.stringify('x'.repeat(Math.max(0, choice.bytes - Buffer.byteLength(shell)))))));
    }
    case 'text':
      return choice.text;
  }
}

function encodeBody(text: string, encoding: FuzzRequest['encoding']): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  switch (encoding) {
    case 'gzip':
      return gzipSync(bytes);
    case 'deflate':
      return deflateSync(bytes);
    case 'br':
      return brotliCompressSync(bytes);
    default:
      return bytes;
  }
}

export function urlOf(r: AnyRoute, req: Pick<FuzzRequest, 'params' | 'query'>, w: World): string {
  let path = r.path;
  for (const [name, choice] of Object.entries(req.params)) {
    const value = choice.kind === 'raw' ? choice.value : encodeURIComponent(worldParam(r, name, w.ids, choice.kind === 'other-org'));
    path = path.replace(`{${name}}`, value);
  }
  // A media link keeps its signature unless the query is fuzzed.
  const query = r.api === 'media' && req.query.length === 0 && !path.includes('/livestreams/') ? [w.ids.downloadQuery] : [...req.query];
  while (query.length > 0 && path.length + query.join('&').length + 1 > MAX_URL_BYTES) query.pop();
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

export interface Sent {
  url: string;
  /** The Authorization value sent, if any. */
  authorization: string | undefined;
  /** Whether the body carried the world's storage secrets. */
  carriedSecrets: boolean;
  status: number;
  body: unknown;
  text: string;
  contentType: string;
  /** The Allow header, if any. */
  allow: string | undefined;
}

/** A route whose success is an endless event stream (GET /_emulator/events). */
function answersStream(r: AnyRoute): boolean {
  return Object.values(r.responses).some((spec) => spec.contentType === 'text/event-stream');
}

/**
 * An event stream never ends by itself: its answer is read up to its first event, then the
 * connection is cut, as a client that goes away would. Any other answer (an error) is read whole.
 */
function readFirstEvent(test: ReturnType<World['t']['api']['get']>): void {
  test.buffer(true).parse((answer, done) => {
    // Node's IncomingMessage at run time; superagent types it as its own Response.
    const res = answer as unknown as IncomingMessage;
    let text = '';
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      (res as IncomingMessage & { text: string }).text = text;
      const json = /^application\/json/.test(String(res.headers['content-type'] ?? ''));
      done(null, json && text ? (JSON.parse(text) as unknown) : {});
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n\n') || !String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) return;
      finish();
      res.destroy();
    });
    res.on('end', finish);
    res.on('close', finish);
  });
}

/** Sends one generated request through the validating supertest of the world's app. */
export async function send(w: World, r: AnyRoute, req: FuzzRequest): Promise<Sent> {
  const url = urlOf(r, req, w);
  const test = w.t.api[req.method](url);
  const auth = authHeader(r, req.auth, w.ids);
  if (auth !== undefined) test.set('Authorization', auth);
  if (req.range) test.set('Range', req.range);
  // A route that reads no body answers without reading it, and supertest closes its server as
  // soon as the answer is in: a 1 MiB body still being written is then cut off (ECONNRESET on the
  // client side only; a real client gets the answer). Size limits concern the routes that read.
  const body = req.body.kind === 'huge' && (!r.body || req.method !== r.method) ? ({ kind: 'valid' } as const) : req.body;
  const text = bodyText(body, validBody(r, w));
  if (text !== null) {
    const encoding = req.encoding === 'gzip-but-plain' ? 'gzip' : req.encoding;
    const bytes = encodeBody(text, req.encoding === 'gzip-but-plain' ? null : req.encoding);
    test.set('Content-Type', req.contentType);
    if (encoding) test.set('Content-Encoding', encoding);
    // Sent as the exact bytes (superagent would re-encode a Buffer as JSON).
    test.serialize((b: unknown) => b as string).send(bytes as unknown as string);
  }
  if (answersStream(r)) readFirstEvent(test);
  const res = await test;
  const carriedSecrets = text !== null && STORAGE_SECRETS.some((secret) => text.includes(secret));
  return {
    url,
    authorization: auth,
    carriedSecrets,
    status: res.status,
    body: res.body,
    text: res.text ?? '',
    contentType: String(res.headers['content-type'] ?? ''),
    allow: res.headers.allow,
  };
}

// --- invariants -------------------------------------------------------------------------------

/** Which error shape a path is answered in, decided from the path alone (not from the emulator's code). */
export function expectedApi(url: string): 'v2' | 'v1' | 'control' | 'media' | 'realtimekit' {
  const path = url.split('?')[0]!;
  if (/^\/client(\/|$)/i.test(path)) return 'realtimekit';
  if (/^\/(api\/)?v1(\/|$)/.test(path)) return 'v1';
  if (/^\/_emulator(\/|$)/.test(path)) return 'control';
  if (/^\/media\//.test(path)) return 'media';
  return 'v2';
}

export function assertErrorShape(sent: Sent): void {
  const what = `${sent.status} ${sent.url.slice(0, 200)}: ${sent.text.slice(0, 300)}`;
  expect(sent.contentType, what).toMatch(/^application\/json/);
  const api = expectedApi(sent.url);
  if (api === 'v2') {
    expect(sent.body, what).toEqual({ success: false, error: { code: sent.status, message: expect.any(String) } });
  } else if (api === 'realtimekit') {
    expect(sent.body, what).toEqual({ success: false, errors: [{ code: sent.status, message: expect.any(String) }], messages: [], result: null });
  } else {
    expect(sent.body, what).toEqual({ error: { code: expect.stringMatching(/^[A-Z][A-Z0-9_]*$/), message: expect.any(String) } });
  }
}

/**
 * Whether a declared route serves a raw path, as docs/api-v2.md describes routing: case-insensitive,
 * one optional trailing slash, each `{param}` one or more characters of a single segment.
 */
function serves(route: AnyRoute, path: string): boolean {
  // The fuzzed requests go to the emulator's own host: a route of a web SDK host does not serve them there.
  if (route.host !== undefined) return false;
  const source = route.path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i').test(path);
}

const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A request no declared route serves: 404 where no route serves the path at all, else 405 with
 * the methods routes serve there (HEAD wherever GET is). Served requests are left to the other checks.
 */
export function assertUnservedAnswer(method: Method, sent: Sent, context: string): void {
  const path = sent.url.split('?')[0]!;
  const there = ROUTES.filter((route) => serves(route, path));
  if (there.some((route) => route.method === method)) return;
  const methods = new Set(there.map((route) => route.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size === 0) {
    expect(sent.status, context).toBe(404);
    return;
  }
  expect(sent.status, context).toBe(405);
  expect(sent.allow, context).toBe(ALLOW_ORDER.filter((m) => methods.has(m)).join(', '));
}

const protoKeys = (o: object) => [...Object.getOwnPropertyNames(o), ...Object.getOwnPropertySymbols(o).map(String)].sort();
export const PROTOTYPE_BASELINE = { object: protoKeys(Object.prototype), array: protoKeys(Array.prototype) };

export function assertNoPollution(context: string): void {
  expect(({} as Record<string, unknown>).polluted, context).toBeUndefined();
  expect(protoKeys(Object.prototype), context).toEqual(PROTOTYPE_BASELINE.object);
  expect(protoKeys(Array.prototype), context).toEqual(PROTOTYPE_BASELINE.array);
}

/** Storage secrets and Authorization values never come back: not in the answer, the state, the journal or a webhook. */
async function assertNoSecrets(w: World, sent: Sent, context: string, everywhere: boolean): Promise<void> {
  // Only a credential after a scheme word: a bare value (an org id) may well be data.
  if (sent.authorization !== undefined && /^\S+ \S{8,}/.test(sent.authorization)) expect(sent.text, context).not.toContain(sent.authorization);
  for (const secret of STORAGE_SECRETS) expect(sent.text, context).not.toContain(secret);
  if (!everywhere) return;
  await w.t.deps.webhooks.outbox.idle();
  const places = [
    await stateText(w.t),
    (await w.t.api.get('/_emulator/requests').expect(200)).text,
    ...w.transport.requests.map((x) => x.body.toString('utf8')),
  ];
  for (const text of places) for (const secret of STORAGE_SECRETS) expect(text, context).not.toContain(secret);
}

/**
 * Sends the request and checks every invariant. An accepted change (a 2xx to anything but GET)
 * is undone by importing the pristine state, so the next request meets the same world.
 */
export async function checkRequest(w: World, r: AnyRoute, req: FuzzRequest): Promise<Sent> {
  const sent = await send(w, r, req);
  const context = `${req.method.toUpperCase()} ${sent.url.slice(0, 200)} → ${sent.status} ${sent.text.slice(0, 300)}`;
  assertNoPollution(context);
  expect(sent.status, context).toBeLessThan(500);
  assertUnservedAnswer(req.method, sent, context);
  await assertNoSecrets(w, sent, context, sent.carriedSecrets);
  if (sent.status >= 400) {
    assertErrorShape(sent);
    expect(await stateText(w.t), `state changed by a refused request: ${context}`).toBe(w.current);
  } else if (req.method !== 'get') {
    await w.t.api.put('/_emulator/state').set('content-type', 'application/json').send(w.pristine).expect(200);
    w.current = w.pristine;
  } else {
    w.current = await stateText(w.t);
  }
  return sent;
}

/**
 * One property per route, in a describe block of its own: hostile requests (any method) against a
 * world built once for the block. Each API's routes run in a file of their own, so they run in
 * parallel.
 */
export function describeRouteProperties(title: string, routes: AnyRoute[]): void {
  describe(title, () => {
    let w: World;
    beforeAll(async () => {
      w = await buildFuzzWorld();
    });

    it.each(routes.map(routeName))('%s', { timeout: fuzzTimeout() }, async (name) => {
      const r = routes.find((x) => routeName(x) === name)!;
      await fc.assert(
        fc.asyncProperty(requestArb(r, { allMethods: true }), (req) => checkRequest(w, r, req).then(() => undefined)),
        fuzzParams(),
      );
    });
  });
}
