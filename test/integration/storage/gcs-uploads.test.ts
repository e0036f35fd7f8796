// Recordings with a `gcs` storage_config: uploads to Google Cloud Storage are not emulated (no GCS
// server can be had where the emulator is built and tested). The config is kept and answered, the
// recording completes with the emulator's own links, nothing is sent anywhere, and the dashboard
// shows its upload as not sent, saying why.
import { describe, expect, it } from 'vitest';
import { ORG_ID } from '../../helpers/test-app.js';
import { recordThroughUpload, storageWorld } from '../../helpers/storage-flow.js';

describe('a gcs storage_config', () => {
  it('is kept, the recording ends UPLOADED with its own links, nothing is sent, and the dashboard says why', async () => {
    // Endpoints for every other type: none of them is used for gcs.
    const w = await storageWorld(
      { storageEndpoints: { aws: 'http://127.0.0.1:9', digitalocean: 'http://127.0.0.1:9', azure: 'http://127.0.0.1:9/account', sftpHosts: ['*'] } },
      async () => undefined,
    );
    const r = await recordThroughUpload(w, {
      storage_config: { type: 'gcs', bucket: 'my-gcs-bucket', path: 'calls', access_key: 'gcs-zq-access', secret: 'gcs-zq-secret' },
    });
    expect(r.status).toBe('UPLOADED');
    // Answered as given, without its credentials.
    expect(r.storage_config).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'gcs', bucket: 'my-gcs-bucket', path: 'calls' });
    expect(r.download_url).toEqual(expect.stringContaining('http://emulator.test/'));
    expect([...w.seenAt.keys()]).toEqual(['INVOKED', 'RECORDING', 'UPLOADING', 'UPLOADED']);

    const reason = 'Uploads to Google Cloud Storage are not emulated: the config is kept, nothing is sent';
    const overview = (await w.t.api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200)).body;
    const shown = overview.meetings[0].recordings.find((x: { id: string }) => x.id === r.id);
    expect(shown.error_reason).toBeNull();
    expect(shown.storage_upload).toEqual({ type: 'gcs', outcome: 'not_sent', reason, files: [] });
    // Nothing went anywhere: no upload in the request journal, none in flight.
    const journal = (await w.t.api.get('/_emulator/requests?method=PUT').expect(200)).body;
    expect(journal.filter((e: { upload?: unknown }) => e.upload)).toEqual([]);
    expect(w.t.deps.storage.pending).toBe(0);
    expect(JSON.stringify(overview)).not.toContain('gcs-zq-');
  });
});
