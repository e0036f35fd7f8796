// Recordings with an `azure` storage_config land in a real blob service (Azurite, started here in
// a child process on the loopback) in the config's container at path/output_file_name, before the
// UPLOADED webhook; a wrong account key or a missing container ends the recording ERRORED, saying
// why in the dashboard's overview, the request journal and the webhook delivery log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AZURE_ACCOUNT, AZURE_KEY, startAzurite, type AzureServer } from '../../helpers/storage-servers.js';
import {
  expectLevelsDecide,
  expectUploadFailureShown,
  recordThroughUpload,
  SAMPLE_AUDIO,
  SAMPLE_VIDEO,
  storageWorld,
  type ConfigLevel,
} from '../../helpers/storage-flow.js';

let azure: AzureServer;
beforeAll(async () => {
  azure = await startAzurite();
  await azure.createContainer('recordings');
  await azure.createContainer('archive');
}, 60_000);
afterAll(async () => {
  await azure?.close();
});

describe('uploads to an Azure blob service', () => {
  it('with the connection string production asks for in access_key: the files land at path/output_file_name before the UPLOADED webhook', async () => {
    let blob = '';
    const w = await storageWorld({ storageEndpoints: { azure: azure.url, sftpHosts: [] } }, async () => azure.get('recordings', blob));
    const started = w.t.now();
    blob = `calls/${w.meetingId}_${started}.mp4`;
    // The connection string's own endpoint is not where the upload goes: the emulator's endpoint is.
    const connection = `DefaultEndpointsProtocol=https;AccountName=${AZURE_ACCOUNT};AccountKey=${AZURE_KEY};EndpointSuffix=core.windows.net`;
    const r = await recordThroughUpload(w, {
      storage_config: { type: 'azure', bucket: 'recordings', path: 'calls', access_key: connection, secret: '', region: '' },
    });
    expect(r.status).toBe('UPLOADED');
    expect((w.seenAt.get('UPLOADED') as Buffer | undefined)?.equals(SAMPLE_VIDEO)).toBe(true);
    expect(w.seenAt.get('UPLOADING')).toBeUndefined();
    expect((await azure.get('recordings', `calls/${w.meetingId}_${started}.m4a`))?.equals(SAMPLE_AUDIO)).toBe(true);
    expect(w.t.deps.storage.uploadOf(r.id)?.files.map((f) => f.location)).toEqual([
      `${azure.url}/recordings/calls/${w.meetingId}_${started}.mp4`,
      `${azure.url}/recordings/calls/${w.meetingId}_${started}.m4a`,
    ]);
  });

  it('with the account name in access_key and its key in secret', async () => {
    const w = await storageWorld({ storageEndpoints: { azure: azure.url, sftpHosts: [] } }, async () => undefined);
    const started = w.t.now();
    const r = await recordThroughUpload(w, { storage_config: { type: 'azure', bucket: 'recordings', access_key: AZURE_ACCOUNT, secret: AZURE_KEY } });
    expect(r.status).toBe('UPLOADED');
    expect((await azure.get('recordings', `${w.meetingId}_${started}.mp4`))?.equals(SAMPLE_VIDEO)).toBe(true);
  });

  it('a wrong account key ends the recording ERRORED with the service\u2019s refusal, saying why everywhere a user looks, and never an UPLOADED webhook', async () => {
    const w = await storageWorld({ storageEndpoints: { azure: azure.url, sftpHosts: [] } }, async () => undefined);
    const wrongKey = Buffer.from('not the account key at all, but base64 all the same').toString('base64');
    const r = await recordThroughUpload(w, { storage_config: { type: 'azure', bucket: 'recordings', access_key: AZURE_ACCOUNT, secret: wrongKey } });
    await expectUploadFailureShown(
      w,
      r,
      /^Upload of .+\.mp4 to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/recordings\/.+ failed: AuthorizationFailure: .+ \(HTTP 403\)$/,
      403,
    );
    const upload = w.t.deps.storage.uploadOf(r.id)!;
    expect(upload.reason).not.toContain(wrongKey);
    expect([...w.seenAt.keys()]).toEqual(['INVOKED', 'RECORDING', 'UPLOADING', 'ERRORED']);
  });

  it('a container that does not exist ends it ERRORED, saying why everywhere a user looks', async () => {
    const w = await storageWorld({ storageEndpoints: { azure: azure.url, sftpHosts: [] } }, async () => undefined);
    const r = await recordThroughUpload(w, { storage_config: { type: 'azure', bucket: 'no-such-container', access_key: AZURE_ACCOUNT, secret: AZURE_KEY } });
    await expectUploadFailureShown(w, r, /failed: ContainerNotFound: .+ \(HTTP 404\)$/, 404);
  });
});

describe("the organization's stored config and the levels above it", () => {
  it("a recording takes the organization's container, path and account; the meeting's config overrides them, and the start request's overrides both", async () => {
    const w = await storageWorld({ storageEndpoints: { azure: azure.url, sftpHosts: [] } }, async () => undefined);
    const place: Record<ConfigLevel, { bucket: string; path: string }> = {
      organization: { bucket: 'archive', path: 'org-level' },
      meeting: { bucket: 'recordings', path: 'meeting-level' },
      start: { bucket: 'archive', path: 'start-level' },
    };
    const wrongKey = Buffer.from('not the account key, base64 all the same').toString('base64');
    await expectLevelsDecide(w, {
      config: (level, credentials) => ({
        type: 'azure',
        ...place[level],
        access_key: AZURE_ACCOUNT,
        secret: credentials === 'right' ? AZURE_KEY : wrongKey,
      }),
      read: (level, name) => azure.get(place[level].bucket, `${place[level].path}/${name}`),
      refusal: /failed: AuthorizationFailure: .+ \(HTTP 403\)$/,
    });
  });
});
