// A naive Express app with the same two routes as the ceiling's POST /v2/meetings and
// GET /v2/meetings/{id}: express.json(), a Basic header check, build, store in a Map,
// res.json(). No validation, journal or logging. It is a reference only (the issue's "naive
// Express app"): it shows what Express itself costs next to bare node:http.
//
//   node bench/express-naive.mjs --port 0      → prints "listening on http://127.0.0.1:PORT"
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { randomUUID } from 'node:crypto';
import process from 'node:process';
import express from 'express';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const EXPECTED = `Basic ${Buffer.from('00000000-0000-4000-8000-000000000001:emulator-api-key').toString('base64')}`;
const meetings = new Map();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
app.get('/_emulator/health', (_req, res) => res.json({ status: 'ok' }));
app.use('/v2', (req, res, next) =>
  req.headers.authorization === EXPECTED ? next() : res.status(401).json({ success: false, error: { code: 401, message: 'Unauthorized' } }),
);
app.post('/v2/meetings', (req, res) => {
  const b = req.body ?? {};
  const now = new Date(Date.now()).toISOString();
  const meeting = {
    id: randomUUID(),
    title: b.title ?? null,
    preferred_region: b.preferred_region ?? null,
    waiting_room: b.waiting_room ?? false,
    record_on_start: b.record_on_start ?? false,
    live_stream_on_start: b.live_stream_on_start ?? false,
    persist_chat: false,
    summarize_on_end: false,
    status: 'ACTIVE',
    recording_config: null,
    created_at: now,
    updated_at: now,
  };
  meetings.set(meeting.id, meeting);
  res.status(201).json({ success: true, data: meeting });
});
app.get('/v2/meetings/:id', (req, res) => {
  const meeting = meetings.get(req.params.id);
  if (!meeting) return res.status(404).json({ success: false, error: { code: 404, message: `No meeting found with id ${req.params.id}` } });
  res.json({ success: true, data: meeting });
});

const server = app.listen(Number(flag('--port', '0')), flag('--host', '127.0.0.1'), () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
