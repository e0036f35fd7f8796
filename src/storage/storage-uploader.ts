// Uploaders to an app's own storage: one small interface, one file per cloud. Each takes a file
// on disk and puts it at a key of the app's bucket (or a path on its SFTP host) with the cloud's
// own client library, and fails with a plain reason the recording's ERRORED status carries.
import path from 'node:path';
import type { StorageConfig } from '../domain/models.js';
import type { RecordingFile } from '../domain/recordings/recording-files.js';
import type { StorageSecrets } from '../domain/recordings/storage-secrets.js';

/** One upload: the config (what the recording keeps), its credentials (from the vault), where the emulator may send it. */
export interface UploadTarget {
  config: StorageConfig;
  secrets: StorageSecrets;
  /** The endpoint the emulator was given for this type (S3, Azure); for SFTP the config's own host. */
  endpoint: string;
}

export interface StorageUploader {
  /** Where a key of the target lies, in words: the dashboard and the request journal show it. */
  locationOf(target: UploadTarget, key: string): string;
  /** Puts the file at the key; rejects with an UploadFailed once the storage refused, or the signal aborted it. */
  upload(target: UploadTarget, key: string, file: RecordingFile, signal: AbortSignal): Promise<void>;
}

/** An upload the storage refused or that never reached it: `status` is the storage's HTTP status when it answered. */
export class UploadFailed extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Where a file goes in a bucket: under `path` (production: "the path to a sub-folder where
 * recordings should be transferred"; the bucket's root when absent or "/"), named as the
 * recording's file (its output_file_name, with file_name_prefix already in it). Leading, trailing
 * and doubled slashes are dropped, as an object key has no root.
 */
export function objectKey(folder: string | null, name: string): string {
  const parts = (folder ?? '').split('/').filter((p) => p !== '' && p !== '.');
  return [...parts, name].join('/');
}

/**
 * Where a file goes on an SFTP host: under `path`, absolute when it starts with "/", else relative
 * to the login directory (the root of what the user may see when absent).
 */
export function sftpPath(folder: string | null, name: string): string {
  const f = (folder ?? '').trim();
  if (f === '' || f === '.') return name;
  return path.posix.join(f, name);
}

/** A storage's error text without anything that must stay secret (an error may quote what it was sent). */
export function scrubbed(text: string, secrets: StorageSecrets): string {
  let out = text;
  for (const v of [secrets.accessKey, secrets.secret, secrets.password, secrets.privateKey]) {
    if (typeof v === 'string' && v.length >= 4) out = out.split(v).join('[redacted]');
  }
  return out;
}

/** The first line of an error's message, without trailing dots (a reason is one plain sentence). */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').trim().replace(/\.+$/, '');
}
