// Limits: every limit of the "Limits" table of docs/limits-and-decisions.md, each at the limit
// (accepted, or refused for another reason than the limit) and just over it (refused, naming the
// limit). Table-driven, with the documented numbers written out: a change of the code alone must
// fail here. The first test walks the
// request schemas of the route table: every string and array has a bound, and every bounded
// field has a row here or a citation of the test that covers it elsewhere.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS } from '../../src/http/limits.js';
import { schemaOf, type AnyRoute } from '../../src/http/route.js';
import { allRoutes } from '../../src/http/routes.js';
import { V1_LIMITS } from '../../src/http/v1/schemas.js';
import { RECORDING_STATUSES, WEBHOOK_EVENTS } from '../../src/domain/models.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { MISSING_ID, PRESETS, PRESET_BODY, addParticipant, createLivestream, createMeeting, recordingAction, startRecording } from '../helpers/builders.js';
import { successStatus } from '../helpers/success-status.js';
import { API_KEY, BASIC, makeTestApp, type TestApp } from '../helpers/test-app.js';

const MiB = 1024 * 1024;
const ROUTES = allRoutes('http://emulator.test');
const routeName = (r: Pick<AnyRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;
const routeByName = (name: string) => {
  const r = ROUTES.find((x) => routeName(x) === name);
  if (!r) throw new Error(`no route ${name}`);
  return r;
};
const x = (n: number) => 'x'.repeat(n);
/** RealtimeKit (docs/realtimekit.md): the default account, and where its apps and an app's v2 twins live. */
const DEFAULT_ACCOUNT = '00000000000000000000000000000001';
const KIT_APPS = 'realtime/kit/apps';
const KIT_APP_PREFIX = '/client/v4/accounts/{account_id}/realtime/kit/{app_id}/';
/** A RealtimeKit twin's bounded fields are its v2 route's: the same schemas (checked below), the same rows. */
const asV2Key = (key: string) => key.replace(/^(\w+) \/client\/v4\/accounts\/\{account_id\}\/realtime\/kit\/\{app_id\}\//, '$1 /v2/');
const url = (n: number) => `https://example.test/${'a'.repeat(n - 'https://example.test/'.length)}`;

// --- the world a row needs ----------------------------------------------------------------------

interface World {
  t: TestApp;
  meetingId: string;
  participantId: string;
  recordingId: string;
  webhookId: string;
  /** An organization the partner API made (its rows rename it without clashing with the fixtures'). */
  orgId: string;
  media: { recordingId: string; file: string; query: Record<string, string> };
  /** The participant is in the meeting: its LIVE session. */
  sessionId: string;
}

async function world(): Promise<World> {
  const t = makeTestApp();
  t.deps.webhooks.outbox.useTransport(new RecordingTransport());
  const meeting = await createMeeting(t.api);
  const participant = await addParticipant(t.api, meeting.id);
  const recording = await startRecording(t.api, meeting.id);
  const webhook = (
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'w', url: 'http://127.0.0.1:9/w', events: ['meeting.started'] })
      .expect(201)
  ).body.data;
  t.advance(3_000);
  await recordingAction(t.api, recording.id, 'stop');
  t.advance(20_000);
  const done = (await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200)).body.data;
  const link = new URL(done.download_url as string);
  const second = await startRecording(t.api, meeting.id);
  const sessionId = (await t.api.post(`/_emulator/meetings/${meeting.id}/participants/${participant.id}/join`).expect(200)).body.session.id as string;
  // The join's meeting.started delivery ends before the rows compare states.
  await t.deps.webhooks.outbox.idle();
  const org = (await t.api.post('/v2/orgs').set('Authorization', PARTNER).send(orgBody).expect(201)).body.data;
  return {
    orgId: org.id,
    t,
    meetingId: meeting.id,
    participantId: participant.id,
    recordingId: second.id,
    webhookId: webhook.id,
    media: {
      recordingId: recording.id,
      file: decodeURIComponent(link.pathname.split('/').pop()!).replace(/\.mp4$/, ''),
      query: Object.fromEntries(link.searchParams),
    },
    sessionId,
  };
}

function pathOf(r: AnyRoute, w: World, params: Record<string, string> = {}): string {
  return r.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (params[name] !== undefined) return encodeURIComponent(params[name]);
    if (name === 'meeting_id') return w.meetingId;
    if (name === 'participant_id') return w.participantId;
    if (name === 'recording_id') return w.media.recordingId;
    if (name === 'file') return encodeURIComponent(w.media.file);
    if (name === 'org_id') return w.orgId;
    if (name === 'preset_id') return PRESETS.participant.id;
    if (name === 'account_id') return DEFAULT_ACCOUNT;
    if (name === 'session_id') return w.sessionId;
    // A peer is a participant in a session.
    if (name === 'peer_id') return w.participantId;
    // The meeting itself, which is no breakout room.
    if (name === 'room_id') return w.meetingId;
    if (r.path.startsWith('/v2/meetings/')) return w.meetingId;
    if (r.path.startsWith('/_emulator/orgs/')) return w.orgId;
    if (r.path.startsWith('/v2/webhooks/')) return w.webhookId;
    if (r.path.includes('/recordings/')) return w.recordingId;
    throw new Error(`no world id for {${name}} in ${r.path}`);
  });
}

/** The error body of the route's API for a validation message. */
function refusal(r: AnyRoute, message: string, status = 400, code = 'BAD_REQUEST') {
  if (r.api === 'realtimekit') return { success: false, errors: [{ code: status, message: `BAD_REQUEST: ${message}` }], messages: [], result: null };
  return r.api === 'v2'
    ? { success: false, error: { code: status, message: status === 400 && code === 'BAD_REQUEST' ? `BAD_REQUEST: ${message}` : message } }
    : { error: { code, message } };
}

// --- rows -------------------------------------------------------------------------------------

/** The i-th id of no participant (a UUID, as the control API takes ids). */
const nobody = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

type Value = string | number | unknown[];
interface Row {
  /** Route name, `method path`. */
  route: string;
  /** Where the bounded value goes: a body field (dot path), a query parameter or a path parameter. */
  where: 'body' | 'query' | 'param';
  field: string;
  /** The limit: a maximum length, item count or value. */
  max: number;
  kind: 'length' | 'items' | 'value';
  make?: (n: number) => Value;
  /** The rest of the body (the field is set into it). */
  body?: Record<string, unknown>;
  /** The answer at the limit, when it is not the route's success (refused for another reason). */
  atLimit?: { status: number; code?: string };
  /** The message just over the limit (default: the validation message of the kind). */
  over?: string;
  /** The label the message names (default: the field). */
  label?: string;
}

const participantBody = { preset_name: 'group_call_host', custom_participant_id: 'limits' };
const recordingBody = (w: World) => ({ meeting_id: w.meetingId, allow_multiple_recordings: true });
const webhookBody = { name: 'hook', url: 'http://127.0.0.1:9/limits', events: ['meeting.ended'] };
const PARTNER = 'Bearer emulator-partner-token';
const orgBody = { name: 'Limits org', contact: '', website: 'https://limits.example' };
/** Another name than the world's organization, which has orgBody's: a name is one organization's only. */
const orgRowBody = { ...orgBody, name: 'Limits row org' };
const orgRoutes = ['post /v2/orgs', 'patch /v2/orgs/{org_id}'];
const STORAGE_STRINGS = ['access_key', 'secret_key', 'secret', 'password', 'private_key', 'region', 'bucket', 'path', 'host', 'username'];
const storage = (field: string, route = 'post /v2/recordings', at = ''): Row => ({
  route,
  where: 'body',
  field: `${at}storage_config.${field}`,
  max: ['access_key', 'secret_key', 'secret', 'password', 'private_key'].includes(field) ? 4096 : field === 'path' ? 2048 : 255,
  kind: 'length',
  body: at ? { recording_config: { storage_config: { type: 'aws' } } } : { storage_config: { type: 'aws' } },
});
const MEETING_WRITES = ['post /v2/meetings', 'patch /v2/meetings/{id}', 'put /v2/meetings/{id}'];

const STRING_ROWS: Row[] = [
  {
    route: 'patch /_emulator/meetings/{meeting_id}/breakout-rooms/{room_id}',
    where: 'body',
    field: 'title',
    max: 1024,
    kind: 'length',
    atLimit: { status: 409 },
  },
  // RealtimeKit apps (docs/realtimekit.md)
  { route: `post /client/v4/accounts/{account_id}/${KIT_APPS}`, where: 'body', field: 'name', max: 200, kind: 'length' },
  { route: `get /client/v4/accounts/{account_id}/${KIT_APPS}`, where: 'query', field: 'search', max: 200, kind: 'length' },
  // v2 meetings
  ...['post /v2/meetings', 'patch /v2/meetings/{id}', 'put /v2/meetings/{id}'].map((route): Row => ({
    route,
    where: 'body',
    field: 'title',
    max: 1024,
    kind: 'length',
  })),
  { route: 'get /v2/meetings', where: 'query', field: 'search', max: 1024, kind: 'length' },
  // v2 meetings: the recording and AI configs
  ...MEETING_WRITES.flatMap((route): Row[] => [
    ...STORAGE_STRINGS.map((field) => storage(field, route, 'recording_config.')),
    { route, where: 'body', field: 'recording_config.video_config.watermark.url', max: 2048, kind: 'length', make: url },
    { route, where: 'body', field: 'recording_config.live_streaming_config.rtmp_url', max: 2048, kind: 'length', make: url },
    {
      route,
      where: 'body',
      field: 'ai_config.transcription.keywords',
      max: 255,
      kind: 'length',
      make: (n) => [x(n)],
      label: 'ai_config.transcription.keywords[0]',
    },
  ]),
  // The organization's stored recording config (control API): a recording_config as meetings take it
  ...STORAGE_STRINGS.map((field) => storage(field, 'put /_emulator/orgs/{id}/recording-config')),
  { route: 'put /_emulator/orgs/{id}/recording-config', where: 'body', field: 'video_config.watermark.url', max: 2048, kind: 'length', make: url },
  { route: 'put /_emulator/orgs/{id}/recording-config', where: 'body', field: 'live_streaming_config.rtmp_url', max: 2048, kind: 'length', make: url },
  // v2 participants (add and edit)
  ...['post /v2/meetings/{meeting_id}/participants', 'patch /v2/meetings/{meeting_id}/participants/{participant_id}'].flatMap((route): Row[] => [
    { route, where: 'body', field: 'name', max: 255, kind: 'length', body: participantBody },
    { route, where: 'body', field: 'picture', max: 2048, kind: 'length', make: url, body: participantBody },
    // At 255 characters the name is well-formed but names no preset of the organization.
    { route, where: 'body', field: 'preset_name', max: 255, kind: 'length', body: participantBody, atLimit: { status: 400 } },
    { route, where: 'body', field: 'custom_participant_id', max: 255, kind: 'length', body: { preset_name: 'group_call_host' } },
    { route, where: 'body', field: 'client_specific_id', max: 255, kind: 'length', body: { preset_name: 'group_call_host' } },
  ]),
  // v2 recordings: storage config, url, file_name_prefix
  ...STORAGE_STRINGS.map((field) => storage(field)),
  { route: 'post /v2/recordings', where: 'body', field: 'url', max: 2048, kind: 'length', make: url },
  { route: 'post /v2/recordings', where: 'body', field: 'video_config.watermark.url', max: 2048, kind: 'length', make: url },
  { route: 'post /v2/recordings', where: 'body', field: 'rtmp_out_config.rtmp_url', max: 2048, kind: 'length', make: url },
  { route: 'get /v2/recordings', where: 'query', field: 'search', max: 1024, kind: 'length' },
  {
    route: 'post /v2/recordings',
    where: 'body',
    field: 'file_name_prefix',
    max: 100,
    kind: 'length',
    over: '"file_name_prefix" must be 1 to 100 letters, digits, "_" or "-"',
  },
  { route: 'get /v2/recordings', where: 'query', field: 'status', max: 256, kind: 'length', make: (n) => `RECORDING${' '.repeat(n - 9)}` },
  // v2 livestreams, webhooks
  { route: 'post /v2/meetings/{meeting_id}/livestreams', where: 'body', field: 'name', max: 255, kind: 'length' },
  { route: 'post /v2/livestreams', where: 'body', field: 'name', max: 255, kind: 'length' },
  ...['post /v2/webhooks', 'put /v2/webhooks/{id}', 'patch /v2/webhooks/{id}'].flatMap((route): Row[] => [
    { route, where: 'body', field: 'name', max: 255, kind: 'length', body: webhookBody },
    { route, where: 'body', field: 'url', max: 2048, kind: 'length', make: url, body: webhookBody },
  ]),
  // v2 organizations (partner API)
  ...orgRoutes.flatMap((route): Row[] => [
    { route, where: 'body', field: 'name', max: 200, kind: 'length', body: orgRowBody },
    { route, where: 'body', field: 'contact', max: 200, kind: 'length', body: orgRowBody },
    { route, where: 'body', field: 'website', max: 2048, kind: 'length', make: url, body: orgRowBody },
    { route, where: 'body', field: 'feature_flags', max: 100, kind: 'length', make: (n) => [x(n)], label: 'feature_flags[0]', body: orgRowBody },
  ]),
  // v2 presets: the name, the logo and every colour of the design tokens (create, update, replace)
  ...(
    [
      ['post /v2/presets', PRESET_BODY],
      ['patch /v2/presets/{preset_id}', {}],
      ['put /v2/presets/{preset_id}', PRESET_BODY],
    ] as const
  ).flatMap(([route, body]): Row[] => [
    { route, where: 'body', field: 'name', max: 255, kind: 'length', body },
    { route, where: 'body', field: 'ui.design_tokens.logo', max: 2048, kind: 'length', make: url, body },
    ...[
      ...['300', '400', '500', '600', '700'].map((shade) => `brand.${shade}`),
      ...['600', '700', '800', '900', '1000'].map((shade) => `background.${shade}`),
      ...['danger', 'text', 'text_on_brand', 'success', 'video_bg', 'warning'],
    ].map((color): Row => ({ route, where: 'body', field: `ui.design_tokens.colors.${color}`, max: 255, kind: 'length', body })),
  ]),
  // v1 lookup code: at the limit it is simply no product code (400 INVALID_PRODUCT_CODE)
  ...['get /api/v1/products/{svc_code}', 'get /v1/products/{svc_code}'].map((route): Row => ({
    route,
    where: 'param',
    field: 'svc_code',
    max: 1024,
    kind: 'length',
    make: (n) => `101-${'A'.repeat(n - 4)}`,
    atLimit: { status: 400, code: 'INVALID_PRODUCT_CODE' },
  })),
  // control API and media
  { route: 'post /_emulator/orgs', where: 'body', field: 'name', max: 200, kind: 'length' },
  // The dashboard's files and the docs pages: at the limit, a name no file has.
  { route: 'get /_emulator/ui/assets/{file}', where: 'param', field: 'file', max: 128, kind: 'length', atLimit: { status: 404, code: 'NOT_FOUND' } },
  {
    route: 'get /_emulator/docs/{file}',
    where: 'param',
    field: 'file',
    max: 64,
    kind: 'length',
    make: (n) => `${'a'.repeat(n - 3)}.md`,
    atLimit: { status: 404, code: 'NOT_FOUND' },
  },
  { route: 'post /_emulator/faults', where: 'body', field: 'path', max: 1024, kind: 'length', make: (n) => `/${x(n - 1)}`, body: { status: 503 } },
  { route: 'post /_emulator/recordings/{id}/transition', where: 'body', field: 'reason', max: 255, kind: 'length', body: { to: 'ERRORED' } },
  { route: 'get /_emulator/webhooks/deliveries', where: 'query', field: 'webhook_id', max: 64, kind: 'length' },
  { route: 'get /_emulator/webhooks/deliveries', where: 'query', field: 'org_id', max: 64, kind: 'length' },
  { route: 'get /_emulator/requests', where: 'query', field: 'method', max: 10, kind: 'length' },
  { route: 'get /_emulator/requests', where: 'query', field: 'path_prefix', max: 1024, kind: 'length', make: (n) => `/${x(n - 1)}` },
  // session history: ids of nobody in the session are 404 at the limit; filters padded with empty items
  ...['kick', 'mute'].flatMap((action): Row[] =>
    ['participant_ids', 'custom_participant_ids'].map((field) => ({
      route: `post /v2/meetings/{meeting_id}/active-session/${action}`,
      where: 'body',
      field,
      max: 255,
      kind: 'length',
      make: (n) => [x(n)],
      label: `${field}[0]`,
      atLimit: { status: 404 },
    })),
  ),
  { route: 'post /v2/meetings/{meeting_id}/active-session/poll', where: 'body', field: 'question', max: 1000, kind: 'length', body: { options: ['a'] } },
  {
    route: 'post /v2/meetings/{meeting_id}/active-session/poll',
    where: 'body',
    field: 'options',
    max: 255,
    kind: 'length',
    make: (n) => [x(n)],
    label: 'options[0]',
    body: { question: 'q' },
  },
  { route: 'get /v2/sessions', where: 'query', field: 'search', max: 1024, kind: 'length' },
  { route: 'get /v2/sessions', where: 'query', field: 'associated_id', max: 255, kind: 'length' },
  { route: 'get /v2/sessions/{session_id}/participants', where: 'query', field: 'search', max: 255, kind: 'length' },
  ...['get /v2/sessions/peer-report/{peer_id}', 'get /v2/sessions/{session_id}/participants/{participant_id}'].map((route): Row => ({
    route,
    where: 'query',
    field: 'filters',
    max: 200,
    kind: 'length',
    make: (n) => `events${','.repeat(n - 6)}`,
  })),
  { route: 'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/chat', where: 'body', field: 'message', max: 4000, kind: 'length' },
  { route: 'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/transcript', where: 'body', field: 'text', max: 4000, kind: 'length' },
  // At the limit the id names no poll of the session.
  {
    route: 'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/polls/{poll_id}/vote',
    where: 'param',
    field: 'poll_id',
    max: 100,
    kind: 'length',
    body: { option: 0 },
    atLimit: { status: 404, code: 'NOT_FOUND' },
  },
  // A signed link with a field at its limit is no longer the signed one: 403, not 400.
  ...['chat.csv', 'transcript.csv', 'summary.txt', 'active-transcript.csv'].flatMap((file): Row[] =>
    (['expires', 'signature'] as const).map((field) => ({
      route: `get /media/sessions/{session_id}/${file}`,
      where: 'query',
      field,
      max: field === 'expires' ? 32 : 256,
      kind: 'length',
      make: field === 'expires' ? (n) => '9'.repeat(n) : x,
      atLimit: { status: 403, code: 'INVALID_SIGNATURE' },
    })),
  ),
  {
    route: `get /media/recordings/{recording_id}/{file}`,
    where: 'param',
    field: 'file',
    max: 512,
    kind: 'length',
    atLimit: { status: 403, code: 'INVALID_SIGNATURE' },
  },
  {
    route: `get /media/recordings/{recording_id}/{file}`,
    where: 'query',
    field: 'expires',
    max: 32,
    kind: 'length',
    make: (n) => '9'.repeat(n),
    atLimit: { status: 403, code: 'INVALID_SIGNATURE' },
  },
  {
    route: `get /media/recordings/{recording_id}/{file}`,
    where: 'query',
    field: 'signature',
    max: 256,
    kind: 'length',
    atLimit: { status: 403, code: 'INVALID_SIGNATURE' },
  },
];

const ITEM_ROWS: Row[] = [
  // Breakout rooms: as many rooms as may be open at once; moves and closes naming nobody of the family.
  {
    route: 'post /_emulator/meetings/{meeting_id}/breakout-rooms',
    where: 'body',
    field: 'rooms',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, () => ({})),
  },
  {
    route: 'post /_emulator/meetings/{meeting_id}/breakout-rooms/move',
    where: 'body',
    field: 'participants',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => ({ id: nobody(i) })),
    body: { source_meeting_id: '00000000-0000-4000-8000-00000000dead', destination_meeting_id: '00000000-0000-4000-8000-00000000beef' },
    atLimit: { status: 409 },
  },
  {
    route: 'post /_emulator/meetings/{meeting_id}/breakout-rooms/close',
    where: 'body',
    field: 'room_ids',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => nobody(i)),
    atLimit: { status: 409 },
  },
  ...MEETING_WRITES.map((route): Row => ({
    route,
    where: 'body',
    field: 'ai_config.transcription.keywords',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => `term${i}`),
  })),
  // Every event at most once: all of them is the limit; one more is necessarily a repeat.
  ...['post /v2/webhooks', 'put /v2/webhooks/{id}', 'patch /v2/webhooks/{id}'].map((route): Row => ({
    route,
    where: 'body',
    field: 'events',
    max: 9,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => WEBHOOK_EVENTS[i % WEBHOOK_EVENTS.length]),
    body: webhookBody,
  })),
  // Recipients who are no participants of the meeting: 404 at the limit.
  {
    route: 'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/chat',
    where: 'body',
    field: 'to',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => nobody(i)),
    body: { message: 'psst' },
    atLimit: { status: 404, code: 'NOT_FOUND' },
  },
  // Ids of nobody in the session: 404 at the limit.
  ...['kick', 'mute'].flatMap((action): Row[] =>
    ['participant_ids', 'custom_participant_ids'].map((field) => ({
      route: `post /v2/meetings/{meeting_id}/active-session/${action}`,
      where: 'body',
      field,
      max: 100,
      kind: 'items',
      make: (n) => Array.from({ length: n }, () => 'nobody'),
      atLimit: { status: 404 },
    })),
  ),
  // Ids of nobody waiting: 409 at the limit (nobody is admitted or rejected).
  ...['admit', 'reject'].map((verb): Row => ({
    route: `post /_emulator/meetings/{meeting_id}/waiting-room/${verb}`,
    where: 'body',
    field: 'participant_ids',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => nobody(i)),
    atLimit: { status: 409, code: 'CONFLICT' },
  })),
  // A group call's host manages no stage: 403 at the limit (nobody is moved).
  {
    route: 'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/stage',
    where: 'body',
    field: 'participant_ids',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => nobody(i)),
    body: { action: 'kick' },
    atLimit: { status: 403, code: 'FORBIDDEN' },
  },
  {
    route: 'post /v2/meetings/{meeting_id}/active-session/poll',
    where: 'body',
    field: 'options',
    max: 100,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => `option ${i}`),
    body: { question: 'q' },
  },
  ...orgRoutes.map((route): Row => ({
    route,
    where: 'body',
    field: 'feature_flags',
    max: 50,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => `flag-${i}`),
    body: orgRowBody,
  })),
  // One output of each type at most; at the limit the unknown meeting is what refuses it.
  {
    route: 'post /v2/recordings/track',
    where: 'body',
    field: 'layers.default.outputs',
    max: 2,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => (i === 1 ? { type: 'STORAGE_CONFIG', storage_config: { type: 'aws' } } : { type: 'DYTE_BUCKET' })),
    body: { meeting_id: MISSING_ID, layers: { default: {} } },
    atLimit: { status: 404 },
  },
  // Repeats are allowed in the filter; the count is of the statuses after splitting.
  {
    route: 'get /v2/recordings',
    where: 'query',
    field: 'status',
    max: 12,
    kind: 'items',
    make: (n) => Array.from({ length: n }, (_, i) => RECORDING_STATUSES[i % RECORDING_STATUSES.length]).join(','),
  },
];

const VALUE_ROWS: Row[] = [
  { route: 'post /v2/recordings', where: 'body', field: 'max_seconds', max: 86_400, kind: 'value', make: (n) => n },
  {
    route: 'post /v2/recordings',
    where: 'body',
    field: 'storage_config.port',
    max: 65_535,
    kind: 'value',
    make: (n) => n,
    body: { storage_config: { type: 'sftp' } },
  },
  { route: 'get /_emulator/webhooks/deliveries', where: 'query', field: 'limit', max: 10_000, kind: 'value', make: (n) => n },
  { route: 'get /_emulator/requests', where: 'query', field: 'limit', max: 1_000_000, kind: 'value', make: (n) => n },
  { route: 'post /_emulator/faults', where: 'body', field: 'delay_ms', max: 60_000, kind: 'value', make: (n) => n, body: { path: '/v2/nothing' } },
  { route: 'post /_emulator/faults', where: 'body', field: 'count', max: 1_000_000, kind: 'value', make: (n) => n, body: { path: '/v2/nothing', status: 503 } },
];

/**
 * Bounded fields whose at/over tests live elsewhere (not repeated here).
 *  - v1 creation fields and attributes: test/integration/v1/products-create.test.ts, "field limits: at the bound 201, just over 400 naming the field".
 *  - per_page / page_no on every paged route: test/integration/v2/paging.test.ts ("per_page=100 is allowed", "per_page=101").
 *  - the storage config of a track recording's output (inside an array, which the rows here cannot reach):
 *    test/integration/v2/track-recordings.test.ts ("an output's storage_config has the limits of a recording's").
 *  - a breakout room's title when rooms are opened (inside an array): test/integration/control/breakout-rooms.test.ts
 *    ("a title at its limit opens a room, one over is refused").
 *  - the chat uploads of the web SDKs (a participant token on the SDK's api host) and their links:
 *    test/integration/realtime/chat-files.test.ts ("every bounded field at its limit and one over").
 */
const COVERED_ELSEWHERE: Record<string, string> = Object.fromEntries([
  ...['post /api/v1/products', 'post /v1/products'].flatMap((route) =>
    ['name', 'brand', 'category_code', 'product_id', 'description', 'attributes', 'attributes.*'].map((field) => [
      `${route} body ${field}`,
      'test/integration/v1/products-create.test.ts',
    ]),
  ),
  ...['access_key', 'secret_key', 'secret', 'password', 'private_key', 'region', 'bucket', 'path', 'host', 'username'].map((field) => [
    `post /v2/recordings/track body layers.default.outputs.storage_config.${field}`,
    'test/integration/v2/track-recordings.test.ts',
  ]),
  ['post /_emulator/meetings/{meeting_id}/breakout-rooms body rooms.title', 'test/integration/control/breakout-rooms.test.ts'],
  ...['query name', 'query to'].map((field) => [
    `post /_emulator/meetings/{meeting_id}/participants/{participant_id}/chat/file ${field}`,
    'test/integration/control/session-chat.test.ts',
  ]),
  ...['post /v2/meetings/chat-upload', 'post /v1/meetings/genPreSignedUploadUrl'].flatMap((route) =>
    ['roomUUID', 'filename', 'viewType'].map((field) => [`${route} body ${field}`, 'test/integration/realtime/chat-files.test.ts']),
  ),
  ...['put /media/chat-uploads/{file_id}/{name}', 'get /media/chat-files/{file_id}/{name}'].flatMap((route) =>
    ['param name', 'query expires', 'query signature'].map((field) => [`${route} ${field}`, 'test/integration/realtime/chat-files.test.ts']),
  ),
]);

/** Free-form objects: bounded by the body limits (1 MiB, 32 levels; 64 MiB, 64 levels for state). */
const FREE_FORM = new Set(['ui.config_diff']);

// --- the schema walk ----------------------------------------------------------------------------

interface Found {
  key: string;
  kind: 'length' | 'items' | 'props' | 'unbounded';
  max?: number;
}

function walk(s: Record<string, unknown>, route: string, where: string, path: string, out: Found[]): void {
  const key = `${route} ${where} ${path}`;
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('string') && s.enum === undefined && s.const === undefined) {
    // A uuid or date-time has a fixed form; a pattern without an open-ended quantifier is bounded.
    const fixedForm =
      s.format === 'uuid' || s.format === 'date-time' || (typeof s.pattern === 'string' && !/[+*]|\{\d+,\}/.test(s.pattern.replace(/\\\\/g, '')));
    if (typeof s.maxLength === 'number') out.push({ key, kind: 'length', max: s.maxLength });
    else if (!fixedForm) out.push({ key, kind: 'unbounded' });
  }
  if (types.includes('array')) out.push(typeof s.maxItems === 'number' ? { key, kind: 'items', max: s.maxItems } : { key, kind: 'unbounded' });
  if (types.includes('object') && Object.keys((s.properties as object) ?? {}).length === 0) {
    if (FREE_FORM.has(path)) return; // any JSON inside: the body limits bound it
    if (typeof s.maxProperties === 'number') out.push({ key, kind: 'props', max: s.maxProperties });
    else if (!s.additionalProperties || typeof s.additionalProperties !== 'object') out.push({ key, kind: 'unbounded' });
  }
  // `{}`: any JSON at all, which only the state import takes (64 MiB, 64 levels).
  if (Object.keys(s).length === 0 && !(where === 'body' && path === '' && route === 'put /_emulator/state')) out.push({ key, kind: 'unbounded' });
  for (const [k, v] of Object.entries((s.properties as Record<string, Record<string, unknown>>) ?? {})) walk(v, route, where, path ? `${path}.${k}` : k, out);
  if (s.items && typeof s.items === 'object') walk(s.items as Record<string, unknown>, route, where, path, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    walk(s.additionalProperties as Record<string, unknown>, route, where, `${path}.*`, out);
  for (const k of ['anyOf', 'oneOf', 'allOf']) for (const v of (s[k] as Array<Record<string, unknown>>) ?? []) walk(v, route, where, path, out);
}

function boundedFields(): Found[] {
  const out: Found[] = [];
  for (const r of ROUTES) {
    for (const [where, schema] of [
      ['param', r.params],
      ['query', r.query],
      ['body', r.body],
    ] as const) {
      if (schema) walk(z.toJSONSchema(schemaOf(schema), { io: 'input', unrepresentable: 'any' }), routeName(r), where, '', out);
    }
  }
  return out;
}

describe('every string and array of every request schema is bounded', () => {
  it('the route table has no unbounded string, array or free-form object (the body limits aside)', () => {
    expect(
      boundedFields()
        .filter((f) => f.kind === 'unbounded')
        .map((f) => f.key),
    ).toEqual([]);
  });

  it('every bounded field has a row in this file or is cited as tested elsewhere, with the same limit', () => {
    const rows = new Map([...STRING_ROWS, ...ITEM_ROWS].map((r) => [`${r.route} ${r.where} ${r.field} ${r.kind}`, r]));
    const problems: string[] = [];
    for (const f of boundedFields()) {
      if (f.key.endsWith(' page_no') || f.key.endsWith(' per_page') || COVERED_ELSEWHERE[asV2Key(f.key)]) continue;
      const row = rows.get(`${asV2Key(f.key)} ${f.kind}`);
      if (!row) problems.push(`no row for ${f.key} (${f.kind} ≤ ${f.max})`);
      else if (row.max !== f.max) problems.push(`${f.key}: the row says ${row.max}, the schema ${f.max}`);
    }
    expect(problems).toEqual([]);
  });

  it("a RealtimeKit twin validates its body and query with its v2 route's own schemas", () => {
    const twins = ROUTES.filter((r) => r.path.startsWith(KIT_APP_PREFIX));
    expect(twins.length).toBeGreaterThanOrEqual(28);
    for (const twin of twins) {
      const v2 = routeByName(`${twin.method} /v2/${twin.path.slice(KIT_APP_PREFIX.length)}`);
      expect(twin.body, routeName(twin)).toBe(v2.body);
      expect(twin.query, routeName(twin)).toBe(v2.query);
    }
  });
});

// --- at and just over ---------------------------------------------------------------------------

function setPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(body);
  const keys = path.split('.');
  let o = out;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys.at(-1)!] = value;
  return out;
}

async function sendRow(w: World, row: Row, n: number) {
  const r = routeByName(row.route);
  const value = (row.make ?? x)(n);
  const params = row.where === 'param' ? { [row.field]: String(value) } : {};
  // A media route starts from the recording's signed link; the row's field replaces its part.
  const fields: Record<string, string> = r.api === 'media' ? { ...w.media.query } : {};
  if (row.where === 'query') fields[row.field] = String(value);
  const query = Object.keys(fields).length > 0 ? `?${new URLSearchParams(fields)}` : '';
  const base = row.route === 'post /v2/recordings' ? { ...recordingBody(w), ...(row.body ?? {}) } : (row.body ?? {});
  const req = w.t.api[r.method](`${pathOf(r, w, params)}${query}`);
  if (r.auth === 'basic' || r.auth === 'basic-or-participant') req.set('Authorization', BASIC);
  if (r.auth === 'v1-bearer' || r.auth === 'account-token') req.set('Authorization', `Bearer ${API_KEY}`);
  if (r.auth === 'partner-bearer') req.set('Authorization', PARTNER);
  if (r.body) req.send(row.where === 'body' ? setPath(base, row.field, value) : base);
  return { r, res: await req };
}

const overMessage = (row: Row) => {
  if (row.over) return row.over;
  const label = `"${row.label ?? row.field}"`;
  if (row.kind === 'length') return `${label} length must be less than or equal to ${row.max} characters long`;
  if (row.kind === 'items') return `${label} must contain less than or equal to ${row.max} items`;
  return `${label} must be less than or equal to ${row.max}`;
};

const rowName = (row: Row) => `${row.route} ${row.where} ${row.field} ≤ ${row.max}`;

describe.each([
  ['string lengths', STRING_ROWS],
  ['array sizes', ITEM_ROWS],
  ['numeric ranges', VALUE_ROWS],
] as const)('%s', (_what, rows) => {
  it.each(rows.map((row) => [rowName(row), row] as const))('%s: at the limit accepted, one over refused naming it, nothing changed', async (_name, row) => {
    const w = await world();
    const at = await sendRow(w, row, row.max);
    if (row.atLimit) {
      expect(at.res.status, at.res.text.slice(0, 300)).toBe(row.atLimit.status);
      const message = JSON.stringify(at.res.body);
      expect(message).not.toContain('must be less than or equal');
      if (row.atLimit.code) expect(at.res.body.error.code).toBe(row.atLimit.code);
    } else {
      expect(at.res.status, at.res.text.slice(0, 300)).toBe(successStatus(at.r));
    }
    const before = (await w.t.api.get('/_emulator/state').expect(200)).text;
    const over = await sendRow(w, row, row.max + 1);
    expect(over.res.status).toBe(400);
    expect(over.res.body).toEqual(refusal(over.r, overMessage(row)));
    expect((await w.t.api.get('/_emulator/state').expect(200)).text).toBe(before);
  });
});

describe('lower bounds', () => {
  it('max_seconds: 60 accepted, 59 refused naming it', async () => {
    const w = await world();
    const r = routeByName('post /v2/recordings');
    await w.t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ ...recordingBody(w), max_seconds: 60 })
      .expect(200);
    const res = await w.t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ ...recordingBody(w), max_seconds: 59 })
      .expect(400);
    expect(res.body).toEqual(refusal(r, '"max_seconds" must be greater than or equal to 60'));
  });
});

// --- sizes and nesting of a whole body ------------------------------------------------------------

/** `json` padded with spaces before its closing brace to exactly `bytes` bytes. */
function padded(json: string, bytes: number): string {
  const body = `${json.slice(0, -1)}${' '.repeat(bytes - Buffer.byteLength(json))}}`;
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

/** A body whose deepest value sits `levels` containers down (the outer object is level 1). */
const nested = (levels: number) => `{"name":"n","x":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;

describe('the size and nesting of a body', () => {
  // v2: test/integration/hard-edges.test.ts ("body size", "nesting depth"); v1:
  // test/integration/v1/products-create.test.ts ("accepts a body of exactly 1 MiB", "413 ... 1 MiB + 1").
  it('control API: 1 MiB (1 048 576 bytes) read, one more 413 in the control shape', async () => {
    const t = makeTestApp();
    await t.api.post('/_emulator/orgs').set('Content-Type', 'application/json').send(padded('{"name":"big"}', MiB)).expect(201);
    const before = (await t.api.get('/_emulator/state').expect(200)).text;
    const res = await t.api
      .post('/_emulator/orgs')
      .set('Content-Type', 'application/json')
      .send(padded('{"name":"big"}', MiB + 1))
      .expect(413);
    expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds the limit of 1mb' } });
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(before);
  });

  it.each([
    ['post /_emulator/orgs', '/_emulator/orgs', undefined],
    ['post /v1/products', '/v1/products', `Bearer ${API_KEY}`],
  ] as const)('%s: 32 levels read, one more 400 (nested deeper)', async (_name, path, auth) => {
    const t = makeTestApp();
    const send = (body: string) => {
      const req = t.api.post(path).set('Content-Type', 'application/json');
      if (auth) req.set('Authorization', auth);
      return req.send(body);
    };
    const at = await send(nested(32));
    expect(JSON.stringify(at.body)).not.toContain('nested deeper');
    const over = await send(nested(33)).expect(400);
    expect(over.body).toEqual({ error: { code: 'BAD_REQUEST', message: `Request body is nested deeper than 32 levels` } });
  });

  it('PUT /_emulator/state: 64 MiB imported, one more 413', { timeout: 60_000 }, async () => {
    const t = makeTestApp();
    const doc = (await t.api.get('/_emulator/state').expect(200)).text;
    await t.api
      .put('/_emulator/state')
      .set('Content-Type', 'application/json')
      .send(padded(doc, 64 * MiB))
      .expect(200);
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(doc);
    await createMeeting(t.api);
    const before = (await t.api.get('/_emulator/state').expect(200)).text;
    const res = await t.api
      .put('/_emulator/state')
      .set('Content-Type', 'application/json')
      .send(padded(doc, 64 * MiB + 1))
      .expect(413);
    expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds the limit of 64mb' } });
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(before);
  });

  it('PUT /_emulator/state: 64 levels read, one more 400 (nested deeper)', async () => {
    const t = makeTestApp();
    const before = (await t.api.get('/_emulator/state').expect(200)).text;
    const deep = (levels: number) => `{"version":1,"organizations":[],"x":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;
    // At the limit the document is read, and refused for what it says (no default_presets).
    const at = await t.api.put('/_emulator/state').set('Content-Type', 'application/json').send(deep(64)).expect(400);
    expect(at.body.error.code).toBe('INVALID_STATE');
    const over = await t.api.put('/_emulator/state').set('Content-Type', 'application/json').send(deep(65)).expect(400);
    expect(over.body).toEqual({ error: { code: 'BAD_REQUEST', message: `Request body is nested deeper than 64 levels` } });
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(before);
  });
});

// --- bounds of what the emulator keeps -----------------------------------------------------------
// Webhooks per organization: test/integration/v2/webhooks.test.ts ("allows 100 webhooks per organization (docs/limits-and-decisions.md): the last one at the limit, 400 over it").
// Request journal (--journal-size): test/integration/control/observability.test.ts ("keeps at most its bound (journal size 3, 3|4 requests)").
// Delivery log (--delivery-log-size): test/unit/webhook-outbox.test.ts ("bound 3: after 3|4 delivered records the log holds 3") and
// test/scenarios/webhook-retries.test.ts ("stays within --delivery-log-size"). Over HTTP, at and one over:

describe('--delivery-log-size over the control API', () => {
  it.each([
    [3, 3, 3],
    [3, 4, 3],
  ])('bound %i, %i delivered: the log holds %i, the newest first', async (bound, count, kept) => {
    const t = makeTestApp({ deliveryLogSize: bound });
    const transport = new RecordingTransport();
    t.deps.webhooks.outbox.useTransport(transport);
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'w', url: 'http://127.0.0.1:9/w', events: ['livestreaming.statusUpdate'] })
      .expect(201);
    for (let i = 0; i < count; i++) {
      await createLivestream(t.api, (await createMeeting(t.api)).id);
      await t.deps.webhooks.outbox.idle();
    }
    const log = (await t.api.get('/_emulator/webhooks/deliveries').expect(200)).body;
    expect(log.total).toBe(kept);
    expect(log.deliveries.map((d: { id: string }) => d.id)).toEqual(
      transport.requests
        .map((q) => q.headers['dyte-uuid'])
        .slice(-kept)
        .reverse(),
    );
  });
});

describe('the limits table in src holds the documented values', () => {
  it('LIMITS and V1_LIMITS hold the limits docs/limits-and-decisions.md and docs/api-v1.md document', () => {
    expect(LIMITS).toMatchObject({
      bodyBytes: MiB,
      bodyText: '1mb',
      bodyDepth: 32,
      stateBodyBytes: 64 * MiB,
      stateBodyDepth: 64,
      perPageDefault: 25,
      perPageMax: 100,
      titleMax: 1024,
      nameMax: 255,
      urlMax: 2048,
      clientIdMax: 255,
      secretMax: 4096,
      webhooksPerOrganization: 100,
      deliveriesPerPageMax: 10_000,
      webhookEventsMax: 9,
      statusFilterItems: 12,
      statusFilterChars: 256,
      productCodeMax: 1024,
      orgNameMax: 200,
      orgContactMax: 200,
      orgFeatureFlagsMax: 50,
      orgFeatureFlagMax: 100,
    });
    expect(V1_LIMITS).toMatchObject({ attributesMax: 50, attributeKeyMax: 64, attributeValueMax: 500 });
  });
});
