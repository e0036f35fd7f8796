// One recording's whole life against an emulator with storage endpoints: started with a storage
// config (or the meeting's, or the organization's), recorded, stopped, and advanced past its
// upload. The webhook transport looks into the storage at the moment the UPLOADED (or ERRORED)
// webhook goes out, so a test can tell the file was there before the webhook said so.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../src/config.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { BASIC, makeTestApp, type TestApp } from './test-app.js';

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
