// One recording's whole life against an emulator with storage endpoints: started with a storage
// config (or the meeting's, or the organization's), recorded, stopped, and advanced past its
// upload. The webhook transport looks into the storage at the moment the UPLOADED (or ERRORED)
// webhook goes out, so a test can tell the file was there before the webhook said so.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { BASIC, ORG_ID, makeTestApp, type TestApp } from './test-app.js';

/** The bundled sample files every recording holds here (the tests run without a recorder). */
export const SAMPLE_VIDEO = readFileSync(path.join(import.meta.dirname, '../../fixtures/media/recording.mp4'));
export const SAMPLE_AUDIO = readFileSync(path.join(import.meta.dirname, '../../fixtures/media/recording-audio.m4a'));

export interface StorageWorld {
  t: TestApp;
  transport: RecordingTransport;
  meetingId: string;
  /** What `probe` found when each recording.statusUpdate webhook went out, by the status it announced. */
  seenAt: Map<string, unknown>;
}

/** An emulator (manual clock) with the endpoints, a webhook for recording.statusUpdate, and a meeting. */
export async function storageWorld(config: Partial<Config>, probe: () => Promise<unknown>, meetingBody: Record<string, unknown> = {}): Promise<StorageWorld> {
  const t = makeTestApp(config);
  const seenAt = new Map<string, unknown>();
  const transport = new RecordingTransport(async (req) => {
    const payload = JSON.parse(req.body.toString()) as { event: string; recording?: { status: string } };
    if (payload.event === 'recording.statusUpdate' && payload.recording) seenAt.set(payload.recording.status, await probe());
    return { statusCode: 200, error: null };
  });
  t.deps.webhooks.outbox.useTransport(transport);
  await t.api
    .post('/v2/webhooks')
    .set('Authorization', BASIC)
    .send({ name: 'recordings', url: 'http://receiver.test/hook', events: ['recording.statusUpdate'] })
    .expect(201);
  const meeting = await t.api
    .post('/v2/meetings')
    .set('Authorization', BASIC)
    .send({ title: 'Stored', ...meetingBody })
    .expect(201);
  return { t, transport, meetingId: meeting.body.data.id as string, seenAt };
}

/** Starts a recording, lets it record, stops it and advances past its upload; the recording as then. */
export async function recordThroughUpload(w: StorageWorld, start: Record<string, unknown>): Promise<Record<string, unknown> & { id: string; status: string }> {
  const { t } = w;
  const started = await t.api
    .post('/v2/recordings')
    .set('Authorization', BASIC)
    .send({ meeting_id: w.meetingId, allow_multiple_recordings: true, ...start })
    .expect(200);
  const id = started.body.data.id as string;
  await t.api.post('/_emulator/clock/advance').send({ ms: 3_000 }).expect(200);
  await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
  // The advance answers once the upload ended (the delivery's idle()).
  await t.api.post('/_emulator/clock/advance').send({ ms: 60_000 }).expect(200);
  await t.deps.webhooks.outbox.idle();
  const got = await t.api.get(`/v2/recordings/${id}`).set('Authorization', BASIC).expect(200);
  return got.body.data;
}

/**
 * A recording whose upload failed, as its user sees it everywhere they look: ERRORED with no
 * download link; the dashboard's overview gives its reason, matching `reason`, and shows its
 * upload failed with the same reason; the request journal's entry of the failed file has that
 * reason and the storage's HTTP status (`status`: 0 where none came, and for SFTP); the webhook
 * delivery log's ERRORED delivery says it in its note, and no webhook said UPLOADED.
 */
export async function expectUploadFailureShown(
  w: StorageWorld,
  r: Record<string, unknown> & { id: string; status: string },
  reason: RegExp,
  status: number,
): Promise<void> {
  const { api } = w.t;
  expect(r.status).toBe('ERRORED');
  expect(r.download_url).toBeNull();
  const overview = (await api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200)).body as {
    meetings: {
      recordings: {
        id: string;
        error_reason: string | null;
        storage_upload: { outcome: string; reason: string | null; files: { name: string; outcome: string }[] } | null;
      }[];
    }[];
  };
  const shown = overview.meetings.flatMap((m) => m.recordings).find((x) => x.id === r.id)!;
  expect(shown.error_reason).toMatch(reason);
  expect(shown.storage_upload?.outcome).toBe('failed');
  expect(shown.storage_upload?.reason).toBe(shown.error_reason);
  // The video file failed; the audio file after it was never sent, and is not shown as still uploading.
  expect(shown.storage_upload?.files.map((f) => [f.name.slice(-4), f.outcome])).toEqual([
    ['.mp4', 'failed'],
    ['.m4a', 'not_sent'],
  ]);

  const journal = (await api.get('/_emulator/requests?method=PUT').expect(200)).body as {
    status: number;
    upload?: { recording_id: string; outcome: string; error: string | null };
  }[];
  const entries = journal.filter((e) => e.upload?.recording_id === r.id);
  // The files are sent one after the other, and the first refusal ends the upload: one entry, failed.
  expect(entries).toHaveLength(1);
  expect(entries[0]!.upload).toMatchObject({ outcome: 'failed', error: shown.error_reason });
  expect(entries[0]!.status).toBe(status);

  const deliveries = (await api.get('/_emulator/webhooks/deliveries?event=recording.statusUpdate').expect(200)).body.deliveries as {
    note: string | null;
    payload: { recording: { id: string; status: string } };
  }[];
  const mine = deliveries.filter((d) => d.payload.recording.id === r.id);
  const errored = mine.find((d) => d.payload.recording.status === 'ERRORED');
  expect(errored?.note).toBe(`Recording ERRORED: ${shown.error_reason}`);
  expect(mine.some((d) => d.payload.recording.status === 'UPLOADED')).toBe(false);
}

export type ConfigLevel = 'organization' | 'meeting' | 'start';

/** A storage as the precedence test uses it: each level's config puts files in a place of its own. */
export interface LevelStorage {
  /** A level's storage_config: its own bucket (or container) and path, with the right credentials or wrong ones. */
  config(level: ConfigLevel, credentials: 'right' | 'wrong'): Record<string, unknown>;
  /** The bytes of a file at the place of a level's config, or undefined when there is none. */
  read(level: ConfigLevel, name: string): Promise<Buffer | undefined>;
  /** How the storage's refusal of the wrong credentials ends the recording's reason. */
  refusal: RegExp;
}

/**
 * The precedence of production's recording config hierarchy, for one storage: the organization's
 * stored config decides the bucket, path and credentials of a recording that sets none; a
 * meeting's config wins over it, and the start request's over both. Whose credentials were used is
 * told by wrong ones at one level: the upload fails exactly where that level's config is the one
 * that applies.
 */
export async function expectLevelsDecide(w: StorageWorld, s: LevelStorage): Promise<void> {
  const { api, deps } = w.t;
  const setOrg = async (credentials: 'right' | 'wrong') => {
    const put = await api
      .put(`/_emulator/orgs/${ORG_ID}/recording-config`)
      .send({ file_name_prefix: 'org', storage_config: s.config('organization', credentials) })
      .expect(200);
    // Kept without its credentials.
    const kept = put.body.recording_config.storage_config as Record<string, unknown>;
    for (const secret of ['access_key', 'secret', 'secret_key', 'password', 'private_key']) expect(kept).not.toHaveProperty(secret);
  };
  const file = (r: Record<string, unknown>) => String(r.output_file_name);

  // The organization's config alone: its bucket, path and credentials.
  await setOrg('right');
  const first = await recordThroughUpload(w, {});
  expect(first.status).toBe('UPLOADED');
  expect(first.output_file_name).toMatch(/^org_/);
  expect((await s.read('organization', file(first)))?.equals(SAMPLE_VIDEO)).toBe(true);
  // With wrong credentials there, the upload signs with them and is refused.
  await setOrg('wrong');
  const second = await recordThroughUpload(w, {});
  expect(second.status).toBe('ERRORED');
  expect(deps.storage.uploadOf(second.id)?.reason).toMatch(s.refusal);

  // A meeting's config wins over the organization's wrong one: its place, its own credentials.
  const meeting = await api
    .post('/v2/meetings')
    .set('Authorization', BASIC)
    .send({ title: 'Own storage', recording_config: { storage_config: s.config('meeting', 'right') } })
    .expect(201);
  const onMeeting = { ...w, meetingId: meeting.body.data.id as string };
  const third = await recordThroughUpload(onMeeting, {});
  expect(third.status).toBe('UPLOADED');
  // The prefix the meeting does not set still comes from the organization.
  expect(third.output_file_name).toMatch(/^org_/);
  expect((await s.read('meeting', file(third)))?.equals(SAMPLE_VIDEO)).toBe(true);
  expect(await s.read('organization', file(third))).toBeUndefined();

  // The start request's config wins over the meeting's right one: with wrong credentials it fails...
  const fourth = await recordThroughUpload(onMeeting, { storage_config: s.config('start', 'wrong') });
  expect(fourth.status).toBe('ERRORED');
  expect(deps.storage.uploadOf(fourth.id)?.reason).toMatch(s.refusal);
  expect(await s.read('meeting', file(fourth))).toBeUndefined();
  // ...and with right ones the file goes to its place, and nowhere else.
  const fifth = await recordThroughUpload(onMeeting, { storage_config: s.config('start', 'right') });
  expect(fifth.status).toBe('UPLOADED');
  expect((await s.read('start', file(fifth)))?.equals(SAMPLE_VIDEO)).toBe(true);
  expect(await s.read('meeting', file(fifth))).toBeUndefined();
}
