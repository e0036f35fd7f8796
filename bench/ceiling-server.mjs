// The "Node ceiling": a bare node:http server doing the same visible work as the emulator's
// benchmarked routes, and nothing else — Basic auth header check, JSON parse, build the object
// (UUID, ISO timestamps), store it in a Map, JSON reply; GET by id and the first page of the
// list. Participants get an RS256 JWT signed with node:crypto, as the emulator's do.
//
// No framework, no validation library, no journal, no logging: whatever the emulator answers
// slower than this is the price of everything it does on top. Run with plain node (no loader)
// so its start-up is measured as a bare server's:
//
//   node bench/ceiling-server.mjs --port 0      → prints "listening on http://127.0.0.1:PORT"
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';

const ORG_ID = '00000000-0000-4000-8000-000000000001';
const API_KEY = 'emulator-api-key';
const BODY_LIMIT = 1024 * 1024;

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const port = Number(flag('--port', '0'));
const host = flag('--host', '127.0.0.1');

// The key is made on first use, so the server's own start-up stays a bare server's.
let privateKey;
function signingKey() {
  privateKey ??= createPrivateKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
  return privateKey;
}

const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** RS256, signed off the main thread (libuv pool) as the emulator's WebCrypto signing is. */
function jwt(claims) {
  const head = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(head), signingKey(), (err, signature) => (err ? reject(err) : resolve(`${head}.${signature.toString('base64url')}`)));
  });
}

const meetings = new Map();
const meetingOrder = [];
const participants = new Map();
const recordings = new Map();

function authorized(req) {
  const header = req.headers.authorization;
  if (!header || !header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && decoded.slice(0, colon) === ORG_ID && decoded.slice(colon + 1) === API_KEY;
}

function reply(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const fail = (res, status, message) => reply(res, status, { success: false, error: { code: status, message } });

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > BODY_LIMIT) reject(new Error('too large'));
      else chunks.push(c);
    });
    req.on('end', () => {
      if (size === 0) return resolve({});
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

function meetingOf(body) {
  const now = new Date(Date.now()).toISOString();
  return {
    id: randomUUID(),
    title: body.title ?? null,
    preferred_region: body.preferred_region ?? null,
    waiting_room: body.waiting_room ?? false,
    record_on_start: body.record_on_start ?? false,
    live_stream_on_start: body.live_stream_on_start ?? false,
    persist_chat: body.persist_chat ?? false,
    summarize_on_end: body.summarize_on_end ?? false,
    status: body.status ?? 'ACTIVE',
    recording_config: body.recording_config ?? null,
    created_at: now,
    updated_at: now,
  };
}

async function handle(req, res) {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const parts = path.split('/');
  if (path === '/_emulator/health') return reply(res, 200, { status: 'ok' });
  // Control route used by the mixed flow: the simulated recorder joins (INVOKED → RECORDING).
  if (req.method === 'POST' && parts[1] === '_emulator' && parts[2] === 'recordings' && parts[4] === 'transition') {
    const r = recordings.get(parts[3]);
    if (!r) return fail(res, 404, `No recording found with id ${parts[3]}`);
    await readJson(req);
    r.status = 'RECORDING';
    r.started_time = new Date(Date.now()).toISOString();
    return reply(res, 200, r);
  }
  if (parts[1] !== 'v2') return fail(res, 404, 'Not found');
  if (!authorized(req)) return fail(res, 401, 'Unauthorized');

  // /v2/meetings, /v2/meetings/{id}, /v2/meetings/{id}/participants
  if (parts[2] === 'meetings') {
    if (parts.length === 3 && req.method === 'POST') {
      const meeting = meetingOf(await readJson(req));
      meetings.set(meeting.id, meeting);
      meetingOrder.push(meeting.id);
      return reply(res, 201, { success: true, data: meeting });
    }
    if (parts.length === 3 && req.method === 'GET') {
      const page = [];
      for (let i = meetingOrder.length - 1; i >= 0 && page.length < 25; i--) page.push(meetings.get(meetingOrder[i]));
      const total = meetingOrder.length;
      return reply(res, 200, { success: true, data: page, paging: { total_count: total, start_offset: page.length ? 1 : 0, end_offset: page.length } });
    }
    const meeting = meetings.get(parts[3]);
    if (parts.length === 4 && req.method === 'GET') {
      return meeting ? reply(res, 200, { success: true, data: meeting }) : fail(res, 404, `No meeting found with id ${parts[3]}`);
    }
    if (parts.length === 5 && parts[4] === 'participants' && req.method === 'POST') {
      if (!meeting) return fail(res, 404, `No meeting found with id ${parts[3]}`);
      const body = await readJson(req);
      if (typeof body.preset_name !== 'string') return fail(res, 400, 'BAD_REQUEST: "preset_name" is required');
      const now = new Date(Date.now()).toISOString();
      const clientId = body.custom_participant_id ?? body.client_specific_id;
      const p = {
        id: randomUUID(),
        name: body.name ?? null,
        picture: body.picture ?? null,
        custom_participant_id: clientId,
        client_specific_id: clientId,
        preset_name: body.preset_name,
        preset_id: '00000000-0000-4000-8000-0000000000a1',
        created_at: now,
        updated_at: now,
      };
      participants.set(p.id, p);
      const iat = Math.floor(Date.now() / 1000);
      const token = await jwt({ orgId: ORG_ID, meetingId: meeting.id, participantId: p.id, presetId: p.preset_id, iat, exp: iat + 8_640_000 });
      return reply(res, 201, { success: true, data: { ...p, token } });
    }
  }
  // /v2/recordings (start), /v2/recordings/{id} (stop)
  if (parts[2] === 'recordings') {
    if (parts.length === 3 && req.method === 'POST') {
      const body = await readJson(req);
      const meeting = meetings.get(body.meeting_id);
      if (!meeting) return fail(res, 404, `No meeting found with id ${body.meeting_id}`);
      const now = Date.now();
      const r = {
        id: randomUUID(),
        meeting_id: meeting.id,
        status: 'INVOKED',
        output_file_name: `${meeting.id}_${now}.mp4`,
        invoked_time: new Date(now).toISOString(),
        started_time: null,
        stopped_time: null,
        download_url: null,
        file_size: null,
        session_id: null,
      };
      recordings.set(r.id, r);
      return reply(res, 200, { success: true, data: r });
    }
    if (parts.length === 4 && req.method === 'PUT') {
      const r = recordings.get(parts[3]);
      if (!r) return fail(res, 404, `No recording found with id ${parts[3]}`);
      const body = await readJson(req);
      if (body.action !== 'stop' || r.status !== 'RECORDING') return fail(res, 409, 'Cannot do that now');
      r.status = 'UPLOADING';
      r.stopped_time = new Date(Date.now()).toISOString();
      r.session_id ??= randomUUID();
      const m = meetings.get(r.meeting_id);
      return reply(res, 200, {
        success: true,
        data: {
          ...r,
          meeting: {
            id: m.id,
            title: m.title,
            waiting_room: m.waiting_room,
            record_on_start: m.record_on_start,
            created_at: m.created_at,
            updated_at: m.updated_at,
          },
        },
      });
    }
  }
  return fail(res, 404, 'Not found');
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => fail(res, 400, 'BAD_REQUEST: malformed body'));
});
server.keepAliveTimeout = 5_000;
server.listen(port, host, () => {
  console.log(`listening on http://${host}:${server.address().port}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
