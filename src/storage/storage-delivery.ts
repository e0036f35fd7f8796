// The delivery step that sends a recording's files to the app's own storage (its storage_config),
// before UPLOADED is announced: the video file, and the separate audio file where the recording
// exports one, each at `path` under its own name. Where the emulator may not send the config
// (no endpoint for an S3 or Azure type, an SFTP host other than this machine's loopback that was
// not allowed, gcs), nothing is sent anywhere (the dashboard says why) and the recording
// completes as before. A refusal, a missing bucket, a host that is not there or a timeout end
// the recording ERRORED with the reason; every upload is a request journal entry of its own.
import type { StorageEndpoints } from '../config.js';
import { realNow, type Clock } from '../core/clock.js';
import type { Recording, StorageConfig, StorageType } from '../domain/models.js';
import type { DeliveryStep } from '../domain/recordings/recording-delivery.js';
import type { RecordingArtifacts, RecordingFile } from '../domain/recordings/recording-files.js';
import type { StorageSecretVault, StorageSecrets } from '../domain/recordings/storage-secrets.js';
import type { RequestJournal } from '../journal/request-journal.js';
import type { Logger } from '../logger.js';
import { AzureUploader } from './azure-uploader.js';
import { S3Uploader } from './s3-uploader.js';
import { SftpUploader } from './sftp-uploader.js';
import { objectKey, scrubbed, sftpPath, UploadFailed, type StorageUploader, type UploadTarget } from './storage-uploader.js';

export type UploadOutcome = 'uploading' | 'uploaded' | 'failed' | 'not_sent';

/** Where one file of a recording went (or was to go). */
export interface UploadedFile {
  name: string;
  bytes: number;
  /** The bucket's key, or the path on the SFTP host. */
  key: string;
  /** Where that is, in words: the endpoint, bucket and key, or sftp://user@host:port/path. */
  location: string;
  outcome: UploadOutcome;
}

/** A recording's upload to its app's storage, as the dashboard shows it. */
export interface StorageUpload {
  recordingId: string;
  orgId: string;
  type: StorageType;
  outcome: UploadOutcome;
  /** Why it failed, or why nothing was sent; null once uploaded. */
  reason: string | null;
  files: UploadedFile[];
  /** When it began and ended, on the emulator's clock. */
  startedAt: number;
  endedAt: number | null;
}

export interface StorageDeliveryOptions {
  endpoints: StorageEndpoints;
  timeoutMs: number;
  secrets: StorageSecretVault;
  journal: RequestJournal;
  clock: Clock;
  logger?: Logger;
  /** Told whenever an upload's state changes: the dashboard's live feed (an `upload` event). */
  onChanged?: (u: StorageUpload) => void;
}

/** Emulator decision: the reason a recording whose credentials are gone (a state import) ends ERRORED with. */
export const SECRETS_NOT_KEPT =
  'The storage credentials of this recording are gone: they are kept in memory only and never exported, so a recording loaded from a saved state cannot be uploaded to its storage_config (start it again with its credentials)';

const REASON_MAX = 1000;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const S3 = new S3Uploader();
const UPLOADERS: Record<Exclude<StorageType, 'gcs'>, StorageUploader> = { aws: S3, digitalocean: S3, azure: new AzureUploader(), sftp: new SftpUploader() };

export class StorageDelivery implements DeliveryStep {
  private readonly uploads = new Map<string, StorageUpload>();
  private readonly inFlight = new Map<string, { orgId: string; abort: AbortController }>();

  constructor(private readonly opts: StorageDeliveryOptions) {}

  /** What was sent where for a recording; undefined when it has no storage config, or its upload has not come due. */
  uploadOf(recordingId: string): StorageUpload | undefined {
    return this.uploads.get(recordingId);
  }

  get pending(): number {
    return this.inFlight.size;
  }

  deliver(r: Recording, files: RecordingArtifacts): Promise<void> | undefined {
    const config = r.storageConfig;
    if (!config) return undefined;
    const toSend = filesToSend(r, files);
    const now = this.opts.clock.now();
    const endpoint = this.endpointFor(config);
    const keyOf = (f: RecordingFile) => (config.type === 'sftp' ? sftpPath(config.path, f.name) : objectKey(config.path, f.name));
    if ('notSent' in endpoint) {
      // Nothing is sent anywhere: the recording completes as it did before uploads were emulated.
      this.record({
        recordingId: r.id,
        orgId: r.orgId,
        type: config.type,
        outcome: 'not_sent',
        reason: endpoint.notSent,
        files: [],
        startedAt: now,
        endedAt: now,
      });
      this.opts.secrets.forgetRecording(r.id);
      return undefined;
    }
    const uploader = UPLOADERS[config.type as Exclude<StorageType, 'gcs'>];
    const held = this.opts.secrets.forRecording(r.id);
    const target: UploadTarget = { config, secrets: held.held ? held.secrets : {}, endpoint: endpoint.url };
    const upload: StorageUpload = {
      recordingId: r.id,
      orgId: r.orgId,
      type: config.type,
      outcome: 'uploading',
      reason: null,
      files: toSend.map((f) => ({ name: f.name, bytes: f.bytes, key: keyOf(f), location: uploader.locationOf(target, keyOf(f)), outcome: 'uploading' })),
      startedAt: now,
      endedAt: null,
    };
    this.record(upload);
    if (!held.held) return Promise.reject(new Error(this.finish(upload, new Error(SECRETS_NOT_KEPT), {})));
    const abort = new AbortController();
    this.inFlight.set(r.id, { orgId: r.orgId, abort });
    return this.send(upload, uploader, target, toSend, abort).finally(() => {
      this.inFlight.delete(r.id);
      this.opts.secrets.forgetRecording(r.id);
    });
  }

  /** Sends the files one after the other; rejects with the reason the recording fails. */
  private async send(upload: StorageUpload, uploader: StorageUploader, target: UploadTarget, files: RecordingFile[], abort: AbortController): Promise<void> {
    const { timeoutMs } = this.opts;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([abort.signal, deadline]);
    for (const [i, file] of files.entries()) {
      const shown = upload.files[i]!;
      const started = realNow();
      try {
        if (signal.aborted) throw signal.reason;
        await uploader.upload(target, shown.key, file, signal);
        shown.outcome = 'uploaded';
        this.journal(upload, shown, started, 'uploaded', null);
      } catch (err) {
        const why = deadline.aborted
          ? new UploadFailed(`no answer within ${timeoutMs} ms (--storage-timeout-ms)`)
          : abort.signal.aborted
            ? new UploadFailed(String(abort.signal.reason))
            : err;
        shown.outcome = 'failed';
        const reason = this.finish(upload, why, target.secrets);
        this.journal(upload, shown, started, 'failed', reason, why instanceof UploadFailed ? why.status : null);
        throw new Error(reason, { cause: err });
      }
    }
    upload.outcome = 'uploaded';
    upload.endedAt = this.opts.clock.now();
    this.record(upload);
  }

  /** The upload failed: its reason, in one sentence naming the file and where it was going. */
  private finish(upload: StorageUpload, err: unknown, secrets: StorageSecrets): string {
    const file = upload.files.find((f) => f.outcome === 'failed');
    const what = err instanceof UploadFailed ? err.message : err instanceof Error ? err.message : String(err);
    // Bounded: a recording keeps its reason (and a state export holds it) within 1000 characters.
    // What the storage said is scrubbed of the credentials; where the file went is the emulator's own
    // endpoint (an Azure account name in its path is the user's, given on the command line).
    const reason = clip(file ? `Upload of ${file.name} to ${file.location} failed: ${scrubbed(what, secrets)}` : scrubbed(what, secrets), REASON_MAX);
    // The files after the one that failed are never sent (nor any, when the upload could not begin).
    for (const f of upload.files) if (f.outcome === 'uploading') f.outcome = 'not_sent';
    upload.outcome = 'failed';
    upload.reason = reason;
    upload.endedAt = this.opts.clock.now();
    this.record(upload);
    this.opts.logger?.warn({ recording: upload.recordingId, storage: upload.type, reason }, 'recording upload to storage failed');
    return reason;
  }

  private journal(
    upload: StorageUpload,
    file: UploadedFile,
    started: number,
    outcome: 'uploaded' | 'failed',
    error: string | null,
    status: number | null = null,
  ): void {
    this.opts.journal.addUpload({
      at: this.opts.clock.now(),
      orgId: upload.orgId,
      location: file.location,
      // The storage's answer where it speaks HTTP; 0 where none came (or SFTP, which has none).
      status: outcome === 'uploaded' ? (upload.type === 'sftp' ? 0 : 200) : (status ?? 0),
      durationMs: realNow() - started,
      upload: { recording_id: upload.recordingId, storage_type: upload.type, file: file.name, bytes: file.bytes, outcome, error },
    });
  }

  private record(upload: StorageUpload): void {
    this.uploads.set(upload.recordingId, upload);
    this.opts.onChanged?.(upload);
  }

  /** The endpoint the emulator was given for the config's type, or why nothing is sent. */
  private endpointFor(config: StorageConfig): { url: string } | { notSent: string } {
    const { endpoints } = this.opts;
    if (config.type === 'gcs') return { notSent: 'Uploads to Google Cloud Storage are not emulated: the config is kept, nothing is sent' };
    if (config.type === 'sftp') {
      const host = config.host ?? '';
      const hosts = endpoints.sftpHosts ?? [];
      // This machine's own SFTP server (a test's) is always reachable; another host once allowed.
      const allowed = isLoopback(host) || hosts.includes('*') || hosts.includes(host);
      return allowed
        ? { url: host }
        : { notSent: `The emulator may not connect to the SFTP host "${host}": allow it with --storage-endpoint sftp=${host || 'HOST'}` };
    }
    const url = endpoints[config.type];
    return url
      ? { url }
      : { notSent: `No endpoint for ${config.type}: give one with --storage-endpoint ${config.type}=URL (an S3-compatible or blob service)` };
  }

  /** An organization's reset: its uploads in flight stop, and what was shown of them goes. */
  resetOrg(orgId: string): void {
    for (const f of this.inFlight.values()) if (f.orgId === orgId) f.abort.abort('the organization was reset');
    for (const [id, u] of this.uploads) if (u.orgId === orgId) this.uploads.delete(id);
  }

  /** A reset or a state import: every upload in flight stops. */
  reset(): void {
    for (const f of this.inFlight.values()) f.abort.abort('the emulator was reset');
    this.uploads.clear();
  }

  /** The emulator's stop: uploads in flight stop (their recordings end ERRORED, saying so). */
  close(): void {
    for (const f of this.inFlight.values()) f.abort.abort('the emulator stopped');
  }
}

/** The video file, and the audio file where the recording exports it separately (or has nothing else). */
function filesToSend(r: Recording, files: RecordingArtifacts): RecordingFile[] {
  const out: RecordingFile[] = [];
  if (files.video) out.push(files.video);
  if (files.audio && (r.exportAudio || !files.video)) out.push(files.audio);
  return out;
}

/** A name or address of this machine itself: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
