// `aws` and `digitalocean`: the S3 API, through AWS's own client, against the S3-compatible server
// the emulator was given for the type (MinIO, LocalStack, ...), with path-style addressing so that
// any such server answers without a DNS name per bucket. The client is loaded on the first upload:
// a start that never uploads neither reads nor evaluates it.
import { createReadStream } from 'node:fs';
import { firstLine, UploadFailed, type StorageUploader, type UploadTarget } from './storage-uploader.js';

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const QUIET = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export class S3Uploader implements StorageUploader {
  locationOf(target: UploadTarget, key: string): string {
    return `${target.endpoint}/${target.config.bucket ?? ''}/${key}`;
  }

  async upload(target: UploadTarget, key: string, file: { path: string; bytes: number; contentType: string }, signal: AbortSignal): Promise<void> {
    const { config, secrets } = target;
    if (!config.bucket) throw new UploadFailed('storage_config has no bucket');
    // Credentials are always the config's own: never the machine's (environment, profile files).
    if (!secrets.accessKey || !secrets.secret) throw new UploadFailed('storage_config has no access_key and secret to sign the upload with');
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: target.endpoint,
      forcePathStyle: true,
      region: config.region || 'us-east-1',
      credentials: { accessKeyId: secrets.accessKey, secretAccessKey: secrets.secret },
      // One attempt: a refusal is the answer, and the emulator's own timeout bounds the wait.
      maxAttempts: 1,
      // Checksums only where the API requires them: S3-compatible servers vary in the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The client would print its own warnings on the console; the failure is reported once, as the recording's reason.
      logger: QUIET,
    });
    try {
      await client.send(
        new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: createReadStream(file.path), ContentLength: file.bytes, ContentType: file.contentType }),
        { abortSignal: signal },
      );
    } catch (err) {
      const e = err as SdkError;
      const status = e.$metadata?.httpStatusCode ?? null;
      const name = e.name && e.name !== 'Error' && !firstLine(err).startsWith(e.name) ? `${e.name}: ` : '';
      throw new UploadFailed(`${name}${firstLine(err)}${status !== null ? ` (HTTP ${status})` : ''}`, status);
    } finally {
      client.destroy();
    }
  }
}
