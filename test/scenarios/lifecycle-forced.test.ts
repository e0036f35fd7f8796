// Forced transitions through the control API: every pair of statuses, legal and illegal, for
// recordings and livestreams. The simulator is in manual mode so only the test moves things.
import { describe, expect, it } from 'vitest';
import { RECORDING_STATUSES, type RecordingStatus } from '../../src/domain/models.js';
import { BASIC, START, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { DAY, MINUTE, SECOND, expectControlError, iso, patchSimulator, recordEvents } from '../helpers/lifecycle-helpers.js';
import { createLivestream, createMeeting, getLivestream, getRecording, recordingAction, startRecording } from '../helpers/builders.js';

function force(t: TestApp, id: string, body: Record<string, unknown>) {
  return t.api.post(`/_emulator/recordings/${id}/transition`).send(body);
}

/** How to reach each status from INVOKED with forced moves. */
const PATH_TO: Record<RecordingStatus, RecordingStatus[]> = {
  INVOKED: [],
  RECORDING: ['RECORDING'],
  PAUSED: ['RECORDING', 'PAUSED'],
  UPLOADING: ['RECORDING', 'UPLOADING'],
  UPLOADED: ['RECORDING', 'UPLOADING', 'UPLOADED'],
  ERRORED: ['ERRORED'],
};

// The documented lifecycle (docs/time-and-lifecycles.md, "Forced transitions"), written out: the
// only moves a forced transition may make.
const LEGAL = new Set([
  'INVOKED→RECORDING',
  'INVOKED→ERRORED',
  'RECORDING→PAUSED',
  'RECORDING→UPLOADING',
  'RECORDING→ERRORED',
  'PAUSED→RECORDING',
  'PAUSED→UPLOADING',
  'PAUSED→ERRORED',
  'UPLOADING→UPLOADED',
  'UPLOADING→ERRORED',
]);

// The service's own transitions show as the organization, without user details.
const SYSTEM = { type: 'ORGANIZATION' };
/** What each legal move sets, given the time it happens. */
const EFFECTS: Record<string, (now: string) => Record<string, unknown>> = {
  'INVOKED→RECORDING': (now) => ({ started_time: now, session_id: expect.stringMatching(/^[0-9a-f-]{36}$/), stopped_time: null }),
  'INVOKED→ERRORED': () => ({ started_time: null, stopped_time: null, stop_reason: { reason: 'INTERNAL_ERROR', caller: SYSTEM } }),
  'RECORDING→PAUSED': () => ({ started_time: iso(START + SECOND), stopped_time: null }),
  'RECORDING→UPLOADING': (now) => ({ stopped_time: now, file_size: 29_944, stop_reason: { reason: 'API_CALL', caller: SYSTEM }, download_url: null }),
  'RECORDING→ERRORED': (now) => ({ stopped_time: now, stop_reason: { reason: 'INTERNAL_ERROR', caller: SYSTEM } }),
  'PAUSED→RECORDING': () => ({ started_time: iso(START + SECOND), stopped_time: null }),
  'PAUSED→UPLOADING': (now) => ({ stopped_time: now, file_size: 29_944, stop_reason: { reason: 'API_CALL', caller: SYSTEM } }),
  'PAUSED→ERRORED': (now) => ({ stopped_time: now, stop_reason: { reason: 'INTERNAL_ERROR', caller: SYSTEM } }),
  'UPLOADING→UPLOADED': () => ({
    stopped_time: iso(START + 2 * SECOND),
    download_url: expect.stringContaining(`/media/recordings/`),
    audio_download_url: expect.stringContaining('.m4a?expires='),
    download_url_expiry: iso(START + 2 * SECOND + 7 * DAY),
    recording_duration: 1,
  }),
  // A failed upload keeps the stop it had.
  'UPLOADING→ERRORED': () => ({ stopped_time: iso(START + 2 * SECOND), stop_reason: { reason: 'API_CALL', caller: SYSTEM }, download_url: null }),
};

const PAIRS = RECORDING_STATUSES.flatMap((from) => RECORDING_STATUSES.map((to) => [from, to, LEGAL.has(`${from}→${to}`)] as const));

async function recordingIn(status: RecordingStatus) {
  const t = makeTestApp();
  await patchSimulator(t, { recording: { mode: 'manual' } });
  const meetingId = (await createMeeting(t.api)).id;
  const { id } = await startRecording(t.api, meetingId);
  for (const step of PATH_TO[status]) {
    t.advance(SECOND);
    await force(t, id, { to: step }).expect(200);
  }
  t.advance(SECOND);
  return { t, id };
}

describe('POST /_emulator/recordings/{id}/transition', () => {
  it('has exactly ten legal moves', () => {
    expect(PAIRS.filter(([, , legal]) => legal)).toHaveLength(10);
  });

  it.each(PAIRS)('%s → %s (legal: %s)', async (from, to, legal) => {
    const { t, id } = await recordingIn(from);
    const before = await getRecording(t.api, id);
    expect(before.status).toBe(from);
    const res = await force(t, id, { to });
    if (legal) {
      expect(res.status).toBe(200);
      const now = iso(START + (PATH_TO[from].length + 1) * SECOND);
      expect(res.body).toMatchObject({ id, status: to, ...EFFECTS[`${from}→${to}`]!(now) });
      expect(await getRecording(t.api, id)).toEqual(res.body);
    } else {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: { code: 'CONFLICT', message: `Cannot move a recording from ${from} to ${to}` } });
      expect(await getRecording(t.api, id)).toEqual(before);
    }
  });

  it('forcing UPLOADED fills every field an automatic upload fills, to the byte', async () => {
    // Two runs with the same seed and timeline: one automatic, one forced step by step.
    const auto = makeTestApp();
    const forced = makeTestApp();
    await patchSimulator(forced, { recording: { mode: 'manual' } });
    const ids: string[] = [];
    for (const t of [auto, forced]) {
      const meetingId = (await createMeeting(t.api)).id;
      ids.push((await startRecording(t.api, meetingId)).id);
    }
    auto.advance(3 * SECOND);
    forced.advance(3 * SECOND);
    await force(forced, ids[1]!, { to: 'RECORDING' }).expect(200);
    auto.advance(MINUTE);
    forced.advance(MINUTE);
    await recordingAction(auto.api, ids[0]!, 'stop');
    await recordingAction(forced.api, ids[1]!, 'stop');
    auto.advance(15 * SECOND);
    forced.advance(15 * SECOND);
    const res = await force(forced, ids[1]!, { to: 'UPLOADED' }).expect(200);

    const automatic = await getRecording(auto.api, ids[0]!);
    expect(automatic.status).toBe('UPLOADED');
    expect(res.body).toEqual(automatic);
    for (const field of [
      'download_url',
      'audio_download_url',
      'download_url_expiry',
      'recording_duration',
      'file_size',
      'stopped_time',
      'started_time',
      'session_id',
    ]) {
      expect(res.body[field], field).not.toBeNull();
    }
  });

  it('a forced UPLOADED right after the stop carries the stop-based expiry and the recorded duration', async () => {
    const { t, id } = await recordingIn('RECORDING'); // RECORDING since START + 1 s; now START + 2 s
    t.advance(90 * SECOND);
    await recordingAction(t.api, id, 'stop');
    const stopTime = START + 92 * SECOND;
    const res = await force(t, id, { to: 'UPLOADED' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'UPLOADED',
      stopped_time: iso(stopTime),
      download_url_expiry: iso(stopTime + 7 * DAY),
      recording_duration: 91,
      file_size: 29_944,
    });
  });

  it.each([
    ['API_CALL (default)', undefined, 'API_CALL'],
    ['ALL_PEERS_LEFT', 'ALL_PEERS_LEFT', 'ALL_PEERS_LEFT'],
    ['INTERNAL_ERROR', 'INTERNAL_ERROR', 'INTERNAL_ERROR'],
  ])('forcing UPLOADING stops with stop_reason %s', async (_name, reason, expected) => {
    const { t, id } = await recordingIn('RECORDING');
    const res = await force(t, id, reason ? { to: 'UPLOADING', reason } : { to: 'UPLOADING' }).expect(200);
    expect(res.body.stop_reason).toEqual({ reason: expected, caller: { type: 'ORGANIZATION' } });
    expect(res.body.stopped_time).toBe(iso(START + 2 * SECOND));
    expect(res.body.file_size).toBe(29_944);
  });

  it('forcing ERRORED records INTERNAL_ERROR as the stop reason and a stop time', async () => {
    const { t, id } = await recordingIn('RECORDING');
    const res = await force(t, id, { to: 'ERRORED', reason: 'disk full' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'ERRORED',
      stopped_time: iso(START + 2 * SECOND),
      stop_reason: { reason: 'INTERNAL_ERROR', caller: { type: 'ORGANIZATION' } },
    });
  });

  it.each([
    ['the reason given', { to: 'ERRORED', reason: 'disk full' }, 'disk full'],
    ["'forced' when none is given", { to: 'ERRORED' }, 'forced'],
  ])('a forced ERRORED saves as its error reason %s', async (_name, body, expected) => {
    const { t, id } = await recordingIn('RECORDING');
    await force(t, id, body).expect(200);
    const doc = (await t.api.get('/_emulator/state').expect(200)).body;
    const saved = doc.organizations.flatMap((o: { recordings?: Array<Record<string, unknown>> }) => o.recordings ?? []);
    expect(saved.find((r: Record<string, unknown>) => r.id === id)).toMatchObject({ status: 'ERRORED', errorReason: expected });
  });

  it('publishes a status event for every forced move', async () => {
    const { t, id } = await recordingIn('INVOKED');
    const events = recordEvents(t);
    await force(t, id, { to: 'RECORDING' }).expect(200);
    await force(t, id, { to: 'PAUSED' }).expect(200);
    await force(t, id, { to: 'UPLOADED' }).expect(409);
    expect(events).toEqual([`${iso(START + SECOND)} recording INVOKED → RECORDING`, `${iso(START + SECOND)} recording RECORDING → PAUSED`]);
  });

  it.each([
    ['no body', undefined, '"to" is required'],
    ['an unknown status', { to: 'DONE' }, '"to" must be one of [INVOKED, RECORDING, PAUSED, UPLOADING, UPLOADED, ERRORED]'],
    ['a lower-case status', { to: 'recording' }, '"to" must be one of [INVOKED, RECORDING, PAUSED, UPLOADING, UPLOADED, ERRORED]'],
    ['an unknown field', { to: 'RECORDING', force: true }, '"force" is not allowed'],
    [
      'a stop reason outside the contract',
      { to: 'UPLOADING', reason: 'MAX_SECONDS' },
      '"reason" must be one of [API_CALL, ALL_PEERS_LEFT, INTERNAL_ERROR] when "to" is UPLOADING',
    ],
    ['a reason for a move that has none', { to: 'RECORDING', reason: 'x' }, '"reason" is only allowed when "to" is UPLOADING or ERRORED'],
    ['an empty reason', { to: 'ERRORED', reason: '' }, '"reason" is not allowed to be empty'],
  ])('answers 400 for %s, leaving the recording as it was', async (_name, body, message) => {
    const { t, id } = await recordingIn('RECORDING');
    const before = await getRecording(t.api, id);
    const req = t.api.post(`/_emulator/recordings/${id}/transition`);
    const res = await (body === undefined ? req : req.send(body)).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
    expect(await getRecording(t.api, id)).toEqual(before);
  });

  it('answers 404 for an unknown recording and 400 for an id that is not a UUID', async () => {
    const t = makeTestApp();
    const missing = '00000000-0000-4000-8000-00000000dead';
    const res = await force(t, missing, { to: 'RECORDING' }).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `No recording found with id ${missing}` } });
    const bad = await force(t, 'nope', { to: 'RECORDING' }).expect(400);
    expectControlError(bad.body, 'BAD_REQUEST');
  });
});

type LiveState = 'WAITING' | 'LIVE' | 'IDLE' | 'STOPPED' | 'ERRORED';
type LiveWire = 'OFFLINE' | 'LIVE' | 'IDLE' | 'ERRORED';
const LIVE_PATH: Record<LiveState, LiveWire[]> = { WAITING: [], LIVE: ['LIVE'], IDLE: ['LIVE', 'IDLE'], STOPPED: ['OFFLINE'], ERRORED: ['ERRORED'] };
// From → to → the wire status after, or 409. WAITING and STOPPED are both OFFLINE on the wire;
// IDLE is a livestream whose ingest ended without a stop (it may go LIVE again).
const LIVE_MATRIX: [LiveState, LiveWire, LiveWire | 409][] = [
  ['WAITING', 'OFFLINE', 'OFFLINE'],
  ['WAITING', 'LIVE', 'LIVE'],
  ['WAITING', 'IDLE', 409],
  ['WAITING', 'ERRORED', 'ERRORED'],
  ['LIVE', 'OFFLINE', 'OFFLINE'],
  ['LIVE', 'LIVE', 409],
  ['LIVE', 'IDLE', 'IDLE'],
  ['LIVE', 'ERRORED', 'ERRORED'],
  ['IDLE', 'OFFLINE', 'OFFLINE'],
  ['IDLE', 'LIVE', 'LIVE'],
  ['IDLE', 'IDLE', 409],
  ['IDLE', 'ERRORED', 'ERRORED'],
  ['STOPPED', 'OFFLINE', 409],
  ['STOPPED', 'LIVE', 409],
  ['STOPPED', 'IDLE', 409],
  ['STOPPED', 'ERRORED', 409],
  ['ERRORED', 'OFFLINE', 409],
  ['ERRORED', 'LIVE', 409],
  ['ERRORED', 'IDLE', 409],
  ['ERRORED', 'ERRORED', 409],
];

describe('POST /_emulator/livestreams/{id}/transition', () => {
  it.each(LIVE_MATRIX)('%s → %s gives %s', async (from, to, outcome) => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await createLivestream(t.api, meetingId);
    for (const step of LIVE_PATH[from]) await t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to: step }).expect(200);
    const before = await getLivestream(t.api, id);
    t.advance(SECOND);
    const res = await t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to });
    if (outcome === 409) {
      expect(res.status).toBe(409);
      expectControlError(res.body, 'CONFLICT');
      expect(await getLivestream(t.api, id)).toEqual(before);
    } else {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: outcome, updated_at: iso(START + SECOND) });
      expect(await getLivestream(t.api, id)).toEqual(res.body);
    }
  });

  it('a forced stop leaves the meeting without an active livestream', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await createLivestream(t.api, meetingId);
    await t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to: 'LIVE' }).expect(200);
    await t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to: 'OFFLINE' }).expect(200);
    const res = await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual({ success: false, error: { code: 404, message: `No active livestream found for meeting ${meetingId}` } });
    expect(await getLivestream(t.api, id)).toMatchObject({ id, status: 'OFFLINE' });
  });

  it.each([
    [{ to: 'STOPPED' }, '"to" must be one of [OFFLINE, LIVE, IDLE, ERRORED]'],
    [{}, '"to" is required'],
  ])('answers 400 for %j', async (body, message) => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await createLivestream(t.api, meetingId);
    const res = await t.api.post(`/_emulator/livestreams/${id}/transition`).send(body).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
  });

  it('answers 404 for an unknown livestream', async () => {
    const t = makeTestApp();
    const res = await t.api.post('/_emulator/livestreams/00000000-0000-4000-8000-00000000beef/transition').send({ to: 'LIVE' }).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No livestream found with id 00000000-0000-4000-8000-00000000beef' } });
  });
});
