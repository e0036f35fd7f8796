// Recordings with an `sftp` storage_config are written to the host and port the config names
// (an SFTP server of the ssh2 package, started here on the loopback), with PASSWORD or KEY auth,
// under `path`, before the UPLOADED webhook; a wrong password or a refusing host ends the
// recording ERRORED, saying why in the dashboard's overview, the request journal and the webhook
// delivery log; a host the emulator was not allowed to reach is never contacted.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingPort, startSftp, type SftpServer } from '../../helpers/storage-servers.js';
import { expectUploadFailureShown, recordThroughUpload, SAMPLE_AUDIO, SAMPLE_VIDEO, storageWorld } from '../../helpers/storage-flow.js';

let sftp: SftpServer;
beforeAll(async () => {
  sftp = await startSftp('uploader', 'right-password');
});
afterAll(async () => {
  await sftp?.close();
});

const onDisk = (p: string) => {
  const file = path.join(sftp.root, p);
  return existsSync(file) ? readFileSync(file) : undefined;
};
const allowed = () => ({ storageEndpoints: { sftpHosts: ['127.0.0.1'] } });
const sftpConfig = (extra: Record<string, unknown> = {}) => ({
  type: 'sftp',
  host: sftp.host,
  port: sftp.port,
  username: 'uploader',
  auth_method: 'PASSWORD',
  password: 'right-password',
  ...extra,
});

describe('uploads to an SFTP host', () => {
  it('PASSWORD auth: the files are written under path (folders made as needed) before the UPLOADED webhook', async () => {
    let file = '';
    const w = await storageWorld(allowed(), async () => onDisk(file));
    const started = w.t.now();
    file = `incoming/2026/${w.meetingId}_${started}.mp4`;
    const r = await recordThroughUpload(w, { storage_config: sftpConfig({ path: '/incoming/2026' }) });
    expect(r.status).toBe('UPLOADED');
    expect((w.seenAt.get('UPLOADED') as Buffer | undefined)?.equals(SAMPLE_VIDEO)).toBe(true);
    expect(w.seenAt.get('UPLOADING')).toBeUndefined();
    expect(onDisk(`incoming/2026/${w.meetingId}_${started}.m4a`)?.equals(SAMPLE_AUDIO)).toBe(true);
    expect(w.t.deps.storage.uploadOf(r.id)?.files.map((f) => f.location)).toEqual([
      `sftp://uploader@127.0.0.1:${sftp.port}/incoming/2026/${w.meetingId}_${started}.mp4`,
      `sftp://uploader@127.0.0.1:${sftp.port}/incoming/2026/${w.meetingId}_${started}.m4a`,
    ]);
  });

  it('KEY auth with the private key', async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const started = w.t.now();
    const r = await recordThroughUpload(w, {
      storage_config: sftpConfig({ auth_method: 'KEY', password: undefined, private_key: sftp.clientKey.privatePem, path: 'keyed' }),
    });
    expect(r.status).toBe('UPLOADED');
    expect(onDisk(`keyed/${w.meetingId}_${started}.mp4`)?.equals(SAMPLE_VIDEO)).toBe(true);
  });

  it('a wrong password ends the recording ERRORED, saying why everywhere a user looks, and the password is in no reason', async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const r = await recordThroughUpload(w, { storage_config: sftpConfig({ password: 'wrong-password-zq' }) });
    await expectUploadFailureShown(
      w,
      r,
      /^Upload of .+\.mp4 to sftp:\/\/uploader@127\.0\.0\.1:\d+\/~\/.+\.mp4 failed: the SFTP host refused the login \(all configured authentication methods failed\)$/,
      0,
    );
    const upload = w.t.deps.storage.uploadOf(r.id)!;
    expect(JSON.stringify(upload)).not.toContain('wrong-password-zq');
  });

  it('a host that refuses the connection ends it ERRORED, saying why everywhere a user looks', async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const r = await recordThroughUpload(w, { storage_config: sftpConfig({ port: await refusingPort() }) });
    await expectUploadFailureShown(w, r, /failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/, 0);
  });

  it('a host of another machine the emulator was not allowed to reach is never contacted: the recording completes as before', async () => {
    // Contacted, a name that resolves nowhere would end the recording ERRORED; not contacted, it is UPLOADED with nothing sent.
    const w = await storageWorld({ storageEndpoints: { sftpHosts: ['sftp.internal.test'] } }, async () => undefined);
    const r = await recordThroughUpload(w, { storage_config: sftpConfig({ path: 'not-allowed', host: 'files.example.test' }) });
    expect(r.status).toBe('UPLOADED');
    expect(w.t.deps.storage.uploadOf(r.id)).toMatchObject({
      outcome: 'not_sent',
      reason: 'The emulator may not connect to the SFTP host "files.example.test": allow it with --storage-endpoint sftp=files.example.test',
    });
  });

  it("this machine's own SFTP server is reached without being allowed (a test's server)", async () => {
    const w = await storageWorld({}, async () => undefined);
    const started = w.t.now();
    const r = await recordThroughUpload(w, { storage_config: sftpConfig({ path: 'loopback' }) });
    expect(r.status).toBe('UPLOADED');
    expect(onDisk(`loopback/${w.meetingId}_${started}.mp4`)).toEqual(SAMPLE_VIDEO);
  });
});

describe("the organization's stored config and the levels above it", () => {
  it("a recording takes the organization's config; the meeting's overrides it, and the start request's overrides both", async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const { t } = w;
    const orgId = '00000000-0000-4000-8000-000000000001';
    const put = await t.api
      .put(`/_emulator/orgs/${orgId}/recording-config`)
      .send({ file_name_prefix: 'org', storage_config: sftpConfig({ path: 'org-level' }) })
      .expect(200);
    expect(put.body).toEqual({
      recording_config: {
        file_name_prefix: 'org',
        storage_config: { type: 'sftp', host: '127.0.0.1', port: sftp.port, username: 'uploader', auth_method: 'PASSWORD', path: 'org-level' },
      },
    });
    expect((await t.api.get(`/_emulator/orgs/${orgId}/recording-config`).expect(200)).body).toEqual(put.body);

    // Organization level only.
    const first = await recordThroughUpload(w, {});
    expect(first.status).toBe('UPLOADED');
    expect(first.output_file_name).toMatch(/^org_/);
    expect(first.storage_config).toMatchObject({ type: 'sftp', path: 'org-level' });
    expect(onDisk(`org-level/${String(first.output_file_name)}`)?.equals(SAMPLE_VIDEO)).toBe(true);

    // The meeting's recording_config wins over the organization's (its own credentials too).
    const meeting = await t.api
      .post('/v2/meetings')
      .set('Authorization', 'Basic ' + Buffer.from(`${orgId}:emulator-api-key`).toString('base64'))
      .send({ title: 'Own storage', recording_config: { storage_config: sftpConfig({ path: 'meeting-level' }) } })
      .expect(201);
    const second = await recordThroughUpload({ ...w, meetingId: meeting.body.data.id }, {});
    expect(second.status).toBe('UPLOADED');
    // The prefix the meeting does not set still comes from the organization.
    expect(second.output_file_name).toMatch(/^org_/);
    expect(onDisk(`meeting-level/${String(second.output_file_name)}`)?.equals(SAMPLE_VIDEO)).toBe(true);
    expect(onDisk(`org-level/${String(second.output_file_name)}`)).toBeUndefined();

    // The start request's storage_config wins over both: with a wrong password it fails, so the
    // credentials used were the start request's, not the meeting's or the organization's.
    const third = await recordThroughUpload(w, { storage_config: sftpConfig({ path: 'start-level', password: 'not-it' }) });
    expect(third.status).toBe('ERRORED');
    const fourth = await recordThroughUpload(w, { storage_config: sftpConfig({ path: 'start-level' }), file_name_prefix: 'start' });
    expect(fourth.status).toBe('UPLOADED');
    expect(onDisk(`start-level/${String(fourth.output_file_name)}`)?.equals(SAMPLE_VIDEO)).toBe(true);
    expect(fourth.output_file_name).toMatch(/^start_/);

    // Removed: recordings go back to having no storage config.
    await t.api.delete(`/_emulator/orgs/${orgId}/recording-config`).expect(200, { recording_config: null });
    const fifth = await recordThroughUpload(w, {});
    expect(fifth.storage_config).toBeNull();
    expect(t.deps.storage.uploadOf(fifth.id)).toBeUndefined();
  });

  it('an organization that does not exist: 404 on every method, nothing kept', async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const nobody = '9f1b7c1e-0000-4000-8000-00000000dead';
    const notFound = { error: { code: 'NOT_FOUND', message: `No organization found with id ${nobody}` } };
    await w.t.api.get(`/_emulator/orgs/${nobody}/recording-config`).expect(404, notFound);
    await w.t.api.put(`/_emulator/orgs/${nobody}/recording-config`).send({ storage_config: sftpConfig() }).expect(404, notFound);
    await w.t.api.delete(`/_emulator/orgs/${nobody}/recording-config`).expect(404, notFound);
    expect(w.t.deps.storage.pending).toBe(0);
  });

  it('after a state import the credentials are gone: the upload ends ERRORED saying so', async () => {
    const w = await storageWorld(allowed(), async () => undefined);
    const { t } = w;
    const orgId = '00000000-0000-4000-8000-000000000001';
    await t.api
      .put(`/_emulator/orgs/${orgId}/recording-config`)
      .send({ storage_config: sftpConfig({ path: 'imported' }) })
      .expect(200);
    const saved = (await t.api.get('/_emulator/state').expect(200)).body;
    // The organization's config is part of the export, without its password.
    const savedOrg = saved.organizations.find((o: { id: string }) => o.id === orgId);
    expect(savedOrg.recording_config.storage_config).toEqual({
      type: 'sftp',
      host: '127.0.0.1',
      port: sftp.port,
      username: 'uploader',
      auth_method: 'PASSWORD',
      path: 'imported',
    });
    await t.api.put('/_emulator/state').send(saved).expect(200);
    const r = await recordThroughUpload(w, {});
    expect(r.status).toBe('ERRORED');
    expect(t.deps.storage.uploadOf(r.id)?.reason).toBe(
      'The storage credentials of this recording are gone: they are kept in memory only and never exported, so a recording loaded from a saved state cannot be uploaded to its storage_config (start it again with its credentials)',
    );
    // Neither file was sent, and neither is shown as still uploading.
    expect(t.deps.storage.uploadOf(r.id)?.files.map((f) => f.outcome)).toEqual(['not_sent', 'not_sent']);
  });
});
