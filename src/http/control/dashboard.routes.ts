// The emulator in a browser: the landing page at `/`, the dashboard at /_emulator/ui (static
// files built into dist/ui by `npm run build`, served from here: nothing comes from another
// origin), the live event stream it reads, and the two reads it needs that the rest of the
// control API does not give: an organization's resources in one answer, and the exact request
// a delivery sends (headers, raw body) so that the page can check its signature itself.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { clockView, isoOrNull, toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import { PACKAGE_ROOT, VERSION } from '../../core/package-info.js';
import type { Deps } from '../../container.js';
import type { FeedMessage } from '../../ui/live-feed.js';
import { deliveryHeaders } from '../../webhooks/outbox.js';
import { STAGE_STATUSES } from '../../domain/meetings/stage-rules.js';
import { waitingRoomDto, waitingRoomSchema } from './waiting-room.routes.js';
import { route } from '../route.js';
import { livestreamDto, meetingDto, participantDto, recordingDto } from '../v2/mappers.js';
import { isoTime, livestreamSchema, meetingSchema, participantSchema, recordingSchema } from '../v2/schemas.js';
import { webhookDto, webhookSchema } from '../v2/webhooks.routes.js';
import { STORAGE_TYPES } from '../../domain/models.js';
import type { StorageUpload } from '../../storage/storage-delivery.js';

const TAG = 'Control: dashboard';
const DOCS_DIR = path.join(PACKAGE_ROOT, 'docs');

/** Emulator decision: the overview shows an organization's newest meetings, at most this many (the v2 API pages through all). */
export const OVERVIEW_MEETINGS = 200;
/** Per meeting: participants, sessions, recordings and livestreams beyond this many are left out of the overview. */
const OVERVIEW_PER_MEETING = 500;

/** An SSE client that reads slower than the emulator writes is let go past this much unsent data. */
const SSE_BUFFER_LIMIT = 1024 * 1024;
/** A comment line this often (real time) keeps proxies and idle timeouts from closing a quiet stream. */
const SSE_HEARTBEAT_MS = 15_000;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** Which precompressed copy (written next to each file by the build) the client takes, best first. */
function encodingFor(req: Request): 'br' | 'gzip' | undefined {
  // Stryker disable next-line StringLiteral: the placeholder text names neither br nor gzip, so the plain file is sent either way.
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}

/** A built file of the dashboard, compressed when the client takes it. */
async function sendUiFile(deps: Deps, req: Request, res: Response, name: string): Promise<undefined> {
  const ext = path.extname(name);
  const type = CONTENT_TYPES[ext];
  // Only the build's own flat file names: never a path out of the build's folder.
  // Stryker disable next-line MethodExpression: a name ending in '.' has no content type and is already refused, so the check answers the same.
  if (!type || !/^[\w.-]+$/.test(name) || name.startsWith('.')) throw errors.notFoundMessage(`The dashboard has no file ${name}`);
  const file = path.join(deps.config.uiDir, name);
  const encoding = encodingFor(req);
  let bytes: Buffer;
  let sentEncoding: string | undefined;
  try {
    bytes = await readFile(encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file);
    sentEncoding = encoding;
  } catch {
    try {
      bytes = await readFile(file);
    } catch {
      throw errors.notFoundMessage(
        name === 'index.html' ? 'The dashboard is not built: run `npm run build` (or `npm start`, which builds it)' : `The dashboard has no file ${name}`,
      );
    }
  }
  res.statusCode = 200;
  res.setHeader('content-type', type);
  if (sentEncoding) res.setHeader('content-encoding', sentEncoding);
  res.setHeader('vary', 'accept-encoding');
  // Chunks carry a hash in their names; the page and its entry do not, so they are checked each time.
  res.setHeader('cache-control', /-[A-Z0-9]{8}\.js$/.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache');
  res.setHeader('content-length', String(bytes.length));
  // Stryker disable next-line ConditionalExpression,StringLiteral: node:http sends no body for HEAD anyway, so the client sees the same answer.
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What `/` tells an API client: where everything is. Never an API key. */
function summary(deps: Deps) {
  const base = deps.config.publicUrl;
  return {
    name: 'meetings-emulator',
    version: VERSION,
    clock: clockView(deps.clock),
    organizations: deps.store.orgs.size,
    links: {
      dashboard: `${base}/_emulator/ui`,
      openapi: `${base}/_emulator/openapi.json`,
      events: `${base}/_emulator/events`,
      health: `${base}/_emulator/health`,
      docs: `${base}/_emulator/docs/dashboard.md`,
    },
  };
}

const summarySchema = lazy(() =>
  z.object({
    name: z.literal('meetings-emulator'),
    version: z.string(),
    clock: z.object({ now: isoTime(), mode: z.enum(['real', 'manual']) }),
    organizations: z.number().int(),
    links: z.object({ dashboard: z.string(), openapi: z.string(), events: z.string(), health: z.string(), docs: z.string() }),
  }),
);

/**
 * The landing page: links, and the fixture organizations' credentials to paste. Their API keys
 * are the documented ones of the fixtures file, and even so they stay folded until asked for.
 * An organization made at run time (POST /_emulator/orgs) is not listed: its key was shown once.
 */
function landingPage(deps: Deps): string {
  const s = summary(deps);
  const orgs = deps.fixtures.organizations
    .filter((o) => deps.services.organizations.get(o.id))
    .map((o) => {
      const basic = Buffer.from(`${o.id}:${o.api_key}`).toString('base64');
      return `<li><strong>${escapeHtml(o.name)}</strong> <code>${escapeHtml(o.id)}</code>
<details><summary>Show the API key and the v2 Authorization header</summary>
<p>API key: <code>${escapeHtml(o.api_key)}</code></p><p><code>Authorization: Basic ${escapeHtml(basic)}</code></p></details></li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>meetings-emulator ${escapeHtml(s.version)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{font-size:.9em;word-break:break-all}
a{color:LinkText}.big{font-size:1.25rem}</style></head>
<body><main>
<h1>meetings-emulator <small>${escapeHtml(s.version)}</small></h1>
<p>An in-memory emulator of the meetings (v2) and product registry (v1) APIs. Clock: <code>${escapeHtml(s.clock.now)}</code> (${s.clock.mode}).</p>
<p class="big"><a href="/_emulator/ui">Open the dashboard</a></p>
<ul>
<li><a href="/_emulator/openapi.json">The OpenAPI document</a></li>
<li><a href="/_emulator/docs/dashboard.md">The dashboard's documentation</a> (and the other pages under <code>/_emulator/docs/</code>: <a href="/_emulator/docs/api-v2.md">api-v2.md</a>, <a href="/_emulator/docs/control-api.md">control-api.md</a>, <a href="/_emulator/docs/webhooks.md">webhooks.md</a>)</li>
<li><a href="/_emulator/events">The live event stream</a> (server-sent events)</li>
<li><a href="/_emulator/health">Health</a></li>
</ul>
<h2>Credentials to paste</h2>
<p>Base URL <code>${escapeHtml(deps.config.publicUrl)}</code>; the v2 API takes <code>Authorization: Basic base64(orgId:apiKey)</code>.</p>
<ul>${orgs}</ul>
</main></body></html>
`;
}

function sseMessage(m: FeedMessage): string {
  return `id: ${m.id}\nevent: ${m.kind}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

/**
 * Holds the response open and writes the feed to it. History first (after Last-Event-ID or
 * `since`), then live events; it ends when the client goes, or at once on shutdown.
 */
function streamEvents(deps: Deps, req: Request, res: Response, since: number | undefined): undefined {
  const header = req.headers['last-event-id'];
  const lastSeen = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : since;
  res.statusCode = 200;
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  if (req.method === 'HEAD' || deps.feed.isClosed) {
    res.setHeader('connection', 'close');
    res.end();
    return undefined;
  }
  const write = (text: string) => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: writing to an ended or destroyed response does nothing a client can see, so the guard is a shortcut.
    if (res.writableEnded || res.destroyed) return;
    // Stryker disable next-line EqualityOperator: no client can be held exactly 1 MiB behind, and one byte past it both checks agree.
    if (res.writableLength > SSE_BUFFER_LIMIT) {
      res.destroy();
      return;
    }
    res.write(text);
  };
  write(`retry: 2000\n\nevent: hello\ndata: ${JSON.stringify({ ...deps.feed.clockData(), last_id: deps.feed.lastId })}\n\n`);
  // An id this emulator never gave is from an earlier run (a restart): all the history is news then.
  const after = lastSeen !== undefined && lastSeen <= deps.feed.lastId ? lastSeen : 0;
  for (const m of deps.feed.since(after)) write(sseMessage(m));
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
  heartbeat.unref();
  const unsubscribe = deps.feed.subscribe({
    send: (m) => write(sseMessage(m)),
    end: () => {
      clearInterval(heartbeat);
      // The connection goes with the stream: nothing else is sent on it during a shutdown.
      res.end();
      res.socket?.end();
    },
  });
  res.once('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
  return undefined;
}

/** A past or live session of a meeting, counted rather than listed: the v2 sessions routes give the details. */
const sessionSummarySchema = lazy(() =>
  z.object({
    id: z.uuid(),
    started_at: isoTime(),
    ended_at: isoTime().nullable(),
    end_reason: z.enum(['ALL_PARTICIPANTS_LEFT', 'HOST_ENDED_MEETING']).nullable(),
    participant_count: z.number().int().meta({ description: 'Everyone who joined the session at least once' }),
    chat_message_count: z.number().int(),
    transcript_line_count: z.number().int(),
  }),
);

const uploadOutcome = lazy(() => z.enum(['uploading', 'uploaded', 'failed', 'not_sent']));

/** A recording's upload to its app's storage, as the overview shows it. */
const storageUploadSchema = lazy(() =>
  z.object({
    type: z.enum(STORAGE_TYPES),
    outcome: uploadOutcome().meta({ description: 'not_sent: the emulator has no endpoint for the type (or may not reach the SFTP host), so nothing was sent' }),
    reason: z.string().nullable().meta({ description: 'Why it failed, or why nothing was sent' }),
    files: z.array(
      z.object({
        name: z.string(),
        bytes: z.number().int(),
        key: z.string().meta({ description: "The object's key in the bucket, or the path on the SFTP host" }),
        location: z.string().meta({ description: 'The endpoint, bucket and key; or sftp://user@host:port/path' }),
        outcome: uploadOutcome().meta({
          description: 'not_sent: the upload ended before this file was sent (an earlier file failed, or the upload could not begin)',
        }),
      }),
    ),
  }),
);

const overviewSchema = lazy(() =>
  z.object({
    organization: z.object({ id: z.uuid(), name: z.string(), account_id: z.string().meta({ description: 'The RealtimeKit account it is an app of' }) }),
    clock: z.object({ now: isoTime(), mode: z.enum(['real', 'manual']) }),
    meetings: z.array(
      meetingSchema().extend({
        parent_meeting_id: z.uuid().nullable().meta({ description: 'A breakout room: the meeting it was opened from; null for any other meeting' }),
        session: z.object({ id: z.uuid(), started_at: isoTime(), ended_at: isoTime().nullable() }).nullable(),
        sessions: z.array(sessionSummarySchema()).meta({ description: 'Every session of the meeting, newest first' }),
        participants: z.array(
          participantSchema().extend({
            joined_at: isoTime().nullable().meta({ description: 'When present now; null when absent' }),
            stage: z.enum(STAGE_STATUSES).nullable().meta({ description: 'Where they stand on the stage while present; null when absent' }),
          }),
        ),
        recordings: z.array(
          recordingSchema().extend({
            error_reason: z.string().nullable().meta({ description: 'Why the recording ERRORED (production has no field for it); null otherwise' }),
            storage_upload: storageUploadSchema().nullable().meta({
              description:
                "Where the recording was sent for its storage_config (the bucket's keys, or the SFTP paths) and how that ended; null before its upload or without a storage_config",
            }),
          }),
        ),
        livestreams: z.array(livestreamSchema().omit({ stream_key: true })),
        waiting: waitingRoomSchema().shape.waiting,
      }),
    ),
    meetings_total: z.number().int(),
    webhooks: z.array(webhookSchema()),
  }),
);

function storageUploadDto(u: StorageUpload | undefined): z.infer<ReturnType<typeof storageUploadSchema>> | null {
  if (!u) return null;
  return { type: u.type, outcome: u.outcome, reason: u.reason, files: u.files.map((f) => ({ ...f })) };
}

function overview(deps: Deps, orgId: string): z.infer<ReturnType<typeof overviewSchema>> {
  const org = deps.services.organizations.get(orgId);
  if (!org) throw errors.notFound('organization', orgId);
  const { meetings, participants, recordings, livestreams, webhooks, sessionHistory, accounts, waitingRoom, stage } = deps.services;
  const page = { page: 1, perPage: OVERVIEW_PER_MEETING };
  const list = meetings.list(org.id, { page: 1, perPage: OVERVIEW_MEETINGS });
  return {
    organization: { id: org.id, name: org.name, account_id: accounts.accountOf(org.id) },
    clock: clockView(deps.clock),
    meetings: list.items.map((m) => ({
      ...meetingDto(m),
      parent_meeting_id: m.parentMeetingId ?? null,
      session: m.session && {
        id: m.session.id,
        started_at: toIso(m.session.startedAt),
        ended_at: isoOrNull(m.session.endedAt),
      },
      sessions: sessionHistory.list(org.id, { ...page, meetingId: m.id, sortBy: 'createdAt', sortOrder: 'DESC' }).items.map((x) => ({
        id: x.id,
        started_at: toIso(x.startedAt),
        ended_at: isoOrNull(x.endedAt),
        end_reason: x.endReason,
        participant_count: x.participants.length,
        chat_message_count: x.chat.length,
        transcript_line_count: x.transcript.length,
      })),
      participants: participants.list(org.id, m.id, page).items.map((p) => ({
        ...participantDto(p),
        joined_at: isoOrNull(p.joinedAt),
        stage: p.joinedAt === null ? null : stage.statusOf(m, p),
      })),
      recordings: recordings.list(org.id, { ...page, meetingId: m.id, sortOrder: 'ASC' }).items.map((r) => ({
        ...recordingDto(r),
        error_reason: r.status === 'ERRORED' ? r.errorReason : null,
        storage_upload: storageUploadDto(deps.storage.uploadOf(r.id)),
      })),
      // The stream key is the one credential of a livestream (the journal redacts it): not shown without the organization's key.
      livestreams: livestreams.listForMeeting(org.id, m.id, page).items.map((l) => {
        const { stream_key: _secret, ...shown } = livestreamDto(l, deps.media);
        return shown;
      }),
      waiting: waitingRoomDto(m.id, waitingRoom.list(m.id)).waiting,
    })),
    meetings_total: list.total,
    webhooks: webhooks.list(org.id).map(webhookDto),
  };
}

export const dashboardRoutes = [
  route({
    method: 'get',
    path: '/',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Landing page: links to the dashboard, the OpenAPI document and the docs (HTML for browsers, JSON when Accept asks for it)',
    responses: {
      200: { description: 'Where everything is (JSON); browsers get the same as a page (text/html)', schema: () => summarySchema(), alsoAs: ['text/html'] },
    },
    handler: ({ deps, req, res }) => {
      if (req.accepts(['json', 'html']) === 'json') return { status: 200, body: summary(deps) };
      const page = landingPage(deps);
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('content-length', String(Buffer.byteLength(page)));
      res.setHeader('vary', 'accept');
      // Stryker disable next-line ConditionalExpression,StringLiteral: node:http sends no body for HEAD anyway, so the client sees the same answer.
      res.end(req.method === 'HEAD' ? undefined : page);
      return undefined;
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/ui',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'The dashboard (served by the emulator, offline; built by `npm run build`)',
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 404: { description: 'The dashboard is not built' } },
    handler: ({ deps, req, res }) => sendUiFile(deps, req, res, 'index.html'),
  }),
  route({
    method: 'get',
    path: '/_emulator/ui/assets/{file}',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "The dashboard's scripts and styles",
    params: () => z.object({ file: z.string().min(1).max(128) }),
    responses: { 200: { description: 'The file (br or gzip when accepted)', contentType: 'text/javascript' }, 404: { description: 'No such file' } },
    handler: ({ deps, req, res, params }) => sendUiFile(deps, req, res, params.file),
  }),
  route({
    method: 'get',
    path: '/_emulator/docs/{file}',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "The package's documentation pages (Markdown), so that the landing page links to them offline",
    params: () =>
      z.object({
        file: z
          .string()
          .max(64)
          .regex(/^[a-z0-9-]+\.md$/, 'a page name such as dashboard.md'),
      }),
    responses: { 200: { description: 'The page', contentType: 'text/markdown' }, 404: { description: 'No such page' } },
    handler: async ({ params, req, res }) => {
      let text: Buffer;
      try {
        text = await readFile(path.join(DOCS_DIR, params.file));
      } catch {
        throw errors.notFoundMessage(`No documentation page ${params.file}`);
      }
      res.statusCode = 200;
      res.setHeader('content-type', CONTENT_TYPES['.md']!);
      res.setHeader('content-length', String(text.length));
      // Stryker disable next-line ConditionalExpression,StringLiteral: node:http sends no body for HEAD anyway, so the client sees the same answer.
      res.end(req.method === 'HEAD' ? undefined : text);
      return undefined;
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/events',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "Live events as server-sent events: domain events, webhook deliveries and their attempts, recordings' uploads to storage, clock moves, requests",
    description:
      'Events `domain`, `delivery`, `upload`, `clock`, `request` and `reset`, each with an increasing `id` and a JSON `data` line; first a `hello` with the clock. ' +
      'The recent history (not requests) is replayed first: all of it, or what follows `Last-Event-ID` (or `since`). The stream ends when the emulator shuts down.',
    query: () =>
      z.object({
        since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'Replay only events after this id' }),
      }),
    responses: { 200: { description: 'An endless text/event-stream', contentType: 'text/event-stream' } },
    handler: ({ deps, req, res, query }) => streamEvents(deps, req, res, query.since),
  }),
  route({
    method: 'get',
    path: '/_emulator/orgs/{id}/overview',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: `An organization (with its account), its webhooks and newest meetings (up to ${OVERVIEW_MEETINGS}) with their participants (presence, no tokens), current session, every session (counts only), recordings and livestreams (no stream keys)`,
    params: () => z.object({ id: z.uuid() }),
    responses: { 200: { description: 'The overview', schema: () => overviewSchema() }, 404: { description: 'No such organization' } },
    handler: ({ deps, params }) => ({ status: 200, body: overview(deps, params.id) }),
  }),
  route({
    method: 'get',
    path: '/_emulator/webhooks/deliveries/{id}/request',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'The request every attempt of a delivery sends: URL, headers (dyte-signature included) and the raw body, to verify the signature',
    params: () => z.object({ id: z.uuid() }),
    responses: {
      200: { description: 'The request', schema: () => z.object({ url: z.string(), headers: z.record(z.string(), z.string()), body: z.string() }) },
      404: { description: 'No such delivery' },
    },
    handler: async ({ deps, params }) => {
      const d = deps.webhooks.outbox.get(params.id);
      if (!d) throw errors.notFound('delivery', params.id);
      const signature = await deps.webhooks.signer.sign(d.body);
      return { status: 200, body: { url: d.url, headers: deliveryHeaders(d, signature), body: d.body } };
    },
  }),
];
