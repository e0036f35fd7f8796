// Recordings with an `aws` or `digitalocean` storage_config land in a real S3-compatible server
// (s3rver, started here on the loopback) at path/output_file_name, before the UPLOADED webhook;
// a refusal, a missing bucket, a refusing host and a timeout end the recording ERRORED, saying why
// in the dashboard's overview, the request journal and the webhook delivery log.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FeedMessage, LiveFeed } from '../../../src/ui/live-feed.js';
import { BASIC, ORG_ID } from '../../helpers/test-app.js';
import { refusingPort, S3_ACCESS_KEY, S3_SECRET, startS3, startSilentServer, type S3Server } from '../../helpers/storage-servers.js';
import {
  expectLevelsDecide,
  expectUploadFailureShown,
  recordThroughUpload,
  SAMPLE_AUDIO,
  SAMPLE_VIDEO,
  storageWorld,
  type ConfigLevel,
} from '../../helpers/storage-flow.js';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3(['recordings', 'spaces']);
});
afterAll(async () => {
  await s3.close();
});

const aws = (extra: Record<string, unknown> = {}) => ({
  type: 'aws',
  bucket: 'recordings',
  region: 'us-east-1',
  access_key: S3_ACCESS_KEY,
  secret: S3_SECRET,
  ...extra,
});

describe('uploads to an S3-compatible server', () => {
  it('the video and audio files land at path/output_file_name with their bytes before the UPLOADED webhook', async () => {
    let key = '';
    const w = await storageWorld({ storageEndpoints: { aws: s3.url, sftpHosts: [] } }, async () => s3.get('recordings', key));
    const name = (await w.t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: w.meetingId }).expect(200)).body.data;
    // The first recording had no storage config: nothing was uploaded for it.
    expect(name.storage_config).toBeNull();
    // The recording's name is only known once started: the probe reads the key of the second one.
    const started = w.t.now();
    key = `meetings/2026/Physics_9am_${w.meetingId}_${started}.mp4`;
    const r = await recordThroughUpload(w, { storage_config: aws({ path: '/meetings/2026/' }), file_name_prefix: 'Physics_9am' });
    expect(r.status).toBe('UPLOADED');
    expect(r.output_file_name).toBe(`Physics_9am_${w.meetingId}_${started}.mp4`);
    // The emulator's own links are there too (dyte_bucket_config defaults to enabled).
    expect(r.download_url).toEqual(expect.stringContaining('http://emulator.test/'));
    const atWebhook = w.seenAt.get('UPLOADED') as Buffer | undefined;
    expect(atWebhook?.equals(SAMPLE_VIDEO)).toBe(true);
    expect((await s3.get('recordings', `meetings/2026/Physics_9am_${w.meetingId}_${started}.m4a`))?.equals(SAMPLE_AUDIO)).toBe(true);
    // Before the upload the object was not there (UPLOADING's webhook looked).
    expect(w.seenAt.get('UPLOADING')).toBeUndefined();

    const overview = (await w.t.api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200)).body;
    const shown = overview.meetings[0].recordings.find((x: { id: string }) => x.id === r.id);
    expect(shown.storage_upload).toEqual({
      type: 'aws',
      outcome: 'uploaded',
      reason: null,
      files: [
        {
          name: `Physics_9am_${w.meetingId}_${started}.mp4`,
          bytes: SAMPLE_VIDEO.length,
          key: `meetings/2026/Physics_9am_${w.meetingId}_${started}.mp4`,
          location: `${s3.url}/recordings/meetings/2026/Physics_9am_${w.meetingId}_${started}.mp4`,
          outcome: 'uploaded',
        },
        {
          name: `Physics_9am_${w.meetingId}_${started}.m4a`,
          bytes: SAMPLE_AUDIO.length,
          key: `meetings/2026/Physics_9am_${w.meetingId}_${started}.m4a`,
          location: `${s3.url}/recordings/meetings/2026/Physics_9am_${w.meetingId}_${started}.m4a`,
          outcome: 'uploaded',
        },
      ],
    });
    const journal = (await w.t.api.get('/_emulator/requests?method=PUT').expect(200)).body;
    expect(journal.filter((e: { upload?: unknown }) => e.upload)).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: `${s3.url}/recordings/meetings/2026/Physics_9am_${w.meetingId}_${started}.m4a`,
        status: 200,
        upload: expect.objectContaining({ recording_id: r.id, outcome: 'uploaded', error: null, bytes: SAMPLE_AUDIO.length }),
      }),
      expect.objectContaining({ path: `${s3.url}/recordings/meetings/2026/Physics_9am_${w.meetingId}_${started}.mp4`, status: 200 }),
    ]);
  });

  it('digitalocean goes to its own endpoint; without a path the file lies at the bucket root; no audio file unless exported; no emulator links with dyte_bucket_config disabled', async () => {
    const w = await storageWorld({ storageEndpoints: { digitalocean: s3.url, sftpHosts: [] } }, async () => undefined);
    const health = (await w.t.api.get('/_emulator/health').expect(200)).body;
    expect(health.storage).toEqual({ endpoints: { aws: null, digitalocean: s3.url, azure: null }, sftp_hosts: [], uploads_in_flight: 0 });
    const started = w.t.now();
    const r = await recordThroughUpload(w, {
      storage_config: { type: 'digitalocean', bucket: 'spaces', region: 'SGP1', access_key: S3_ACCESS_KEY, secret: S3_SECRET },
      audio_config: { export_file: false },
      dyte_bucket_config: { enabled: false },
    });
    expect(r.status).toBe('UPLOADED');
    expect(r.download_url).toBeNull();
    expect(r.audio_download_url).toBeNull();
    expect(r.download_url_expiry).toBeNull();
    expect((await s3.get('spaces', `${w.meetingId}_${started}.mp4`))?.equals(SAMPLE_VIDEO)).toBe(true);
    expect(await s3.get('spaces', `${w.meetingId}_${started}.m4a`)).toBeUndefined();
  });

  it.each([
    [
      'a wrong access key',
      { access_key: 'NOT-A-KEY' },
      /^Upload of .+\.mp4 to http:\/\/127\.0\.0\.1:\d+\/recordings\/.+ failed: InvalidAccessKeyId: .+ \(HTTP 403\)$/,
    ],
    ['a missing bucket', { bucket: 'no-such-bucket' }, /failed: NoSuchBucket: .+ \(HTTP 404\)$/],
  ])('%s ends the recording ERRORED, saying why everywhere a user looks', async (_what, extra, reason) => {
    const w = await storageWorld({ storageEndpoints: { aws: s3.url, sftpHosts: [] } }, async () => undefined);
    const r = await recordThroughUpload(w, { storage_config: aws(extra) });
    await expectUploadFailureShown(w, r, reason, reason.source.includes('403') ? 403 : 404);
  });

  it('a host that refuses the connection, and one that never answers, end it ERRORED', async () => {
    const port = await refusingPort();
    const refused = await storageWorld({ storageEndpoints: { aws: `http://127.0.0.1:${port}`, sftpHosts: [] } }, async () => undefined);
    const r1 = await recordThroughUpload(refused, { storage_config: aws() });
    await expectUploadFailureShown(refused, r1, /failed: .*ECONNREFUSED/, 0);

    const silent = await startSilentServer();
    try {
      const hung = await storageWorld({ storageEndpoints: { aws: silent.url, sftpHosts: [] }, storageTimeoutMs: 300 }, async () => undefined);
      const r2 = await recordThroughUpload(hung, { storage_config: aws() });
      await expectUploadFailureShown(hung, r2, /failed: no answer within 300 ms \(--storage-timeout-ms\)$/, 0);
    } finally {
      await silent.close();
    }
  });

  it('without an endpoint for the type nothing is sent, and the recording completes as before', async () => {
    const w = await storageWorld({ storageEndpoints: { digitalocean: s3.url, sftpHosts: [] } }, async () => undefined);
    const started = w.t.now();
    const r = await recordThroughUpload(w, { storage_config: aws() });
    expect(r.status).toBe('UPLOADED');
    expect(await s3.get('recordings', `${w.meetingId}_${started}.mp4`)).toBeUndefined();
    expect(w.t.deps.storage.uploadOf(r.id)).toMatchObject({
      outcome: 'not_sent',
      reason: 'No endpoint for aws: give one with --storage-endpoint aws=URL (an S3-compatible or blob service)',
    });
  });
});

describe("the organization's stored config and the levels above it", () => {
  it("a recording takes the organization's bucket, path and credentials; the meeting's config overrides them, and the start request's overrides both", async () => {
    const w = await storageWorld({ storageEndpoints: { aws: s3.url, sftpHosts: [] } }, async () => undefined);
    // Each level its own bucket and folder; s3rver refuses an access key it does not know.
    const place: Record<ConfigLevel, { bucket: string; path: string }> = {
      organization: { bucket: 'spaces', path: 'org-level' },
      meeting: { bucket: 'recordings', path: 'meeting-level' },
      start: { bucket: 'spaces', path: 'start-level' },
    };
    await expectLevelsDecide(w, {
      config: (level, credentials) => aws({ ...place[level], ...(credentials === 'wrong' ? { access_key: 'NOT-A-KEY' } : {}) }),
      read: (level, name) => s3.get(place[level].bucket, `${place[level].path}/${name}`),
      refusal: /failed: InvalidAccessKeyId: .+ \(HTTP 403\)$/,
    });
  });
});

/** Resolves with the first message of the feed, from now on, that `match` accepts. */
function heard(feed: LiveFeed, match: (m: FeedMessage) => boolean): Promise<FeedMessage> {
  return new Promise((resolve) => {
    const unsubscribe = feed.subscribe({
      send: (m) => {
        if (!match(m)) return;
        unsubscribe();
        resolve(m);
      },
      end: () => undefined,
    });
  });
}

describe("the dashboard's live feed", () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>> | undefined;
  // Ended after the test whatever happened in it: a hung upload then fails, and the advance waiting for it answers.
  afterEach(async () => {
    await silent?.close();
    silent = undefined;
  });

  it("hears each upload's start and outcome, before the status change it brings, with no location or credential", async () => {
    const w = await storageWorld({ storageEndpoints: { aws: s3.url, sftpHosts: [] } }, async () => undefined);
    const ok = await recordThroughUpload(w, { storage_config: aws() });
    const refused = await recordThroughUpload(w, { storage_config: aws({ access_key: 'NOT-A-KEY' }) });
    const about = (id: string) =>
      w.t.deps.feed
        .since(0)
        .filter((m) => m.data.recording_id === id && (m.kind === 'upload' || m.data.type === 'recording.statusChanged'))
        .map((m) => (m.kind === 'upload' ? m.data : `status ${String(m.data.status)}`));
    const upload = (id: string, outcome: string, reason: string | null) => ({ org_id: ORG_ID, recording_id: id, storage_type: 'aws', outcome, reason });
    expect(about(ok.id)).toEqual([
      'status INVOKED',
      'status RECORDING',
      'status UPLOADING',
      upload(ok.id, 'uploading', null),
      upload(ok.id, 'uploaded', null),
      'status UPLOADED',
    ]);
    const reason = w.t.deps.storage.uploadOf(refused.id)!.reason!;
    expect(reason).toMatch(/InvalidAccessKeyId/);
    expect(about(refused.id).slice(3)).toEqual([upload(refused.id, 'uploading', null), upload(refused.id, 'failed', reason), 'status ERRORED']);
  });

  it('hears the end of an upload that goes on after its recording was forced to ERRORED (no status change follows it)', async () => {
    silent = await startSilentServer();
    const w = await storageWorld({ storageEndpoints: { aws: silent.url, sftpHosts: [] } }, async () => undefined);
    const { api, deps } = w.t;
    const started = await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: w.meetingId, storage_config: aws() }).expect(200);
    const id = started.body.data.id as string;
    await api.post('/_emulator/clock/advance').send({ ms: 3_000 }).expect(200);
    await api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    // The upload begins and hangs: the server takes the connection and never answers.
    const uploading = heard(deps.feed, (m) => m.kind === 'upload' && m.data.outcome === 'uploading');
    const advanced = api
      .post('/_emulator/clock/advance')
      .send({ ms: 60_000 })
      .then((r) => r.status);
    await uploading;
    const errored = heard(deps.feed, (m) => m.data.type === 'recording.statusChanged' && m.data.status === 'ERRORED');
    const forced = api
      .post(`/_emulator/recordings/${id}/transition`)
      .send({ to: 'ERRORED', reason: 'forced' })
      .then((r) => r.status);
    const forcedAt = (await errored).id;
    expect(deps.storage.uploadOf(id)?.outcome).toBe('uploading');
    // Now the storage goes away: the upload fails, long after the recording's last status change.
    const ended = heard(deps.feed, (m) => m.kind === 'upload' && m.data.outcome === 'failed');
    await silent.close();
    const end = await ended;
    expect(end.id).toBeGreaterThan(forcedAt);
    expect(end.data).toMatchObject({ recording_id: id, outcome: 'failed' });
    expect(await Promise.all([advanced, forced])).toEqual([200, 200]);
    const overview = (await api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200)).body;
    const shown = overview.meetings[0].recordings.find((x: { id: string }) => x.id === id);
    expect(shown).toMatchObject({ status: 'ERRORED', error_reason: 'forced', storage_upload: { outcome: 'failed' } });
    // Nothing else told of it: no status change after the forced one.
    expect(deps.feed.since(forcedAt).filter((m) => m.data.type === 'recording.statusChanged')).toEqual([]);
  });
});
