// The pure parts of uploads to an app's storage: where a file goes (object keys, SFTP paths), the
// credentials' forms, the precedence of the recording configs, and
// the vault that alone holds the credentials.
import { describe, expect, it } from 'vitest';
import { resolveRecordingOptions, storageLevel, withStorageSecretsHeldApart } from '../../src/domain/recordings/recording-config.js';
import { StorageSecretVault, takeStorageSecrets } from '../../src/domain/recordings/storage-secrets.js';
import { azureAccount } from '../../src/storage/azure-uploader.js';
import { objectKey, scrubbed, sftpPath } from '../../src/storage/storage-uploader.js';

describe('where a file goes', () => {
  it.each([
    [null, 'm_1.mp4', 'm_1.mp4'],
    ['', 'm_1.mp4', 'm_1.mp4'],
    ['/', 'm_1.mp4', 'm_1.mp4'],
    ['recordings', 'm_1.mp4', 'recordings/m_1.mp4'],
    ['/recordings/2026/', 'm_1.mp4', 'recordings/2026/m_1.mp4'],
    ['a//b/./c', 'x.m4a', 'a/b/c/x.m4a'],
  ])('in a bucket: path %j and %s → %s', (folder, name, key) => {
    expect(objectKey(folder, name)).toBe(key);
  });

  it.each([
    [null, 'm.mp4', 'm.mp4'],
    ['.', 'm.mp4', 'm.mp4'],
    ['/srv/in', 'm.mp4', '/srv/in/m.mp4'],
    ['in/', 'm.mp4', 'in/m.mp4'],
  ])('on an SFTP host: path %j and %s → %s (absolute stays absolute)', (folder, name, p) => {
    expect(sftpPath(folder, name)).toBe(p);
  });
});

describe('credentials', () => {
  it("Azure: a connection string in access_key (production's guide), or the account name and key", () => {
    expect(azureAccount({ accessKey: 'DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=a2V5;EndpointSuffix=core.windows.net', secret: '' })).toEqual({
      name: 'acc',
      key: 'a2V5',
    });
    expect(azureAccount({ accessKey: 'acc', secret: 'a2V5' })).toEqual({ name: 'acc', key: 'a2V5' });
    expect(azureAccount({ accessKey: 'AccountName=acc' })).toBeUndefined();
    expect(azureAccount({ accessKey: 'acc' })).toBeUndefined();
  });

  it("a storage's error text is cleared of every credential it quotes", () => {
    const secrets = { accessKey: 'AKIAEXAMPLE', secret: 'wJalrXUtnFEMI', password: 'hunter22', privateKey: '-----BEGIN KEY-----' };
    expect(scrubbed('key AKIAEXAMPLE with wJalrXUtnFEMI, hunter22 and -----BEGIN KEY----- twice: AKIAEXAMPLE', secrets)).toBe(
      'key [redacted] with [redacted], [redacted] and [redacted] twice: [redacted]',
    );
  });

  it('the parse takes them off the config; they ride along out of sight until taken', () => {
    const parsed = withStorageSecretsHeldApart({ type: 'aws', bucket: 'b', access_key: 'AK', secret_key: 'SK', password: 'pw', private_key: 'pk' });
    expect(parsed).toEqual({ type: 'aws', bucket: 'b' });
    expect(JSON.stringify(parsed)).toBe('{"type":"aws","bucket":"b"}');
    expect(structuredClone(parsed)).toEqual({ type: 'aws', bucket: 'b' });
    expect({ ...parsed }).toEqual({ type: 'aws', bucket: 'b' });
    expect(takeStorageSecrets(parsed)).toEqual({ accessKey: 'AK', secret: 'SK', password: 'pw', privateKey: 'pk' });
    // Taken once: nothing rides along any more.
    expect(takeStorageSecrets(parsed)).toBeUndefined();
    // `secret` is production's spelling, and wins over `secret_key`.
    expect(takeStorageSecrets(withStorageSecretsHeldApart({ type: 'aws', secret: 'one', secret_key: 'two' }))?.secret).toBe('one');
  });

  it('the vault: by recording, by meeting and by organization; an organization reset and a reset empty it', () => {
    const vault = new StorageSecretVault();
    vault.holdForRecording('org-a', 'rec-1', { accessKey: 'a' });
    vault.holdForRecording('org-b', 'rec-2', { accessKey: 'b' });
    vault.holdForMeeting('org-a', 'm-1', { password: 'p' });
    vault.holdForOrg('org-a', { secret: 's' });
    expect(vault.forRecording('rec-1')).toEqual({ held: true, secrets: { accessKey: 'a' } });
    expect(vault.forMeeting('org-a', 'm-1')).toEqual({ password: 'p' });
    expect(vault.forOrg('org-a')).toEqual({ secret: 's' });
    // A meeting's config set again without secrets takes its old ones away.
    vault.holdForMeeting('org-a', 'm-1', undefined);
    expect(vault.forMeeting('org-a', 'm-1')).toBeUndefined();
    vault.resetOrg('org-a');
    expect(vault.forRecording('rec-1')).toEqual({ held: false });
    expect(vault.forOrg('org-a')).toBeUndefined();
    expect(vault.forRecording('rec-2')).toEqual({ held: true, secrets: { accessKey: 'b' } });
    vault.reset();
    expect(vault.size).toBe(0);
  });
});

describe("the recording configs' precedence: start request, then meeting, then organization", () => {
  const sc = (bucket: string) => ({ type: 'aws' as const, bucket, region: null, path: null, host: null, username: null, port: null, authMethod: null });

  it('each setting comes from the highest level that sets it', () => {
    const org = { fileNamePrefix: 'org', storageConfig: sc('org'), exportAudio: false, maxSeconds: 600, video: { codec: 'VP8' as const, width: 640 } };
    const meeting = { storageConfig: sc('meeting'), video: { width: 800 } };
    const start = { fileNamePrefix: 'start' };
    const r = resolveRecordingOptions(start, meeting, org);
    expect(r).toMatchObject({ fileNamePrefix: 'start', storageConfig: sc('meeting'), exportAudio: false, maxSeconds: 600, uploadToBucket: true });
    expect(r.video).toMatchObject({ codec: 'VP8', width: 800, height: 720 });
    expect(storageLevel(start, meeting, org)).toBe('meeting');
    expect(storageLevel({ storageConfig: sc('s') }, meeting, org)).toBe('start');
    expect(storageLevel({}, {}, org)).toBe('org');
    expect(storageLevel({}, {}, {})).toBeNull();
    // A start request's explicit null leaves the storage config to the levels below (as before).
    expect(resolveRecordingOptions({ storageConfig: null }, {}, org).storageConfig).toEqual(sc('org'));
  });
});
