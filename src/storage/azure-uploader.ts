// `azure`: Blob storage, through Azure's own client, against the blob service the emulator was
// given (its URL names the account in its path, as Azurite's does). `bucket` is the container.
// Credentials: production's guide asks for the storage account's connection string in
// `access_key` (and an empty `secret`); an account name in `access_key` with its key in `secret`
// is taken too. Either way the upload goes to the emulator's endpoint, never to an endpoint a
// connection string names. The client is loaded on the first upload.
import type { StorageSecrets } from '../domain/recordings/storage-secrets.js';
import { firstLine, UploadFailed, type StorageUploader, type UploadTarget } from './storage-uploader.js';

interface RestErrorLike {
  statusCode?: number;
  code?: string;
}

/** The account name and key: from a connection string in access_key, or access_key and secret as they are. */
export function azureAccount(secrets: StorageSecrets): { name: string; key: string } | undefined {
  const given = secrets.accessKey ?? '';
  if (/AccountName=/i.test(given)) {
    const fields = new Map(
      given
        .split(';')
        .map((f) => f.trim())
        .filter(Boolean)
        .map((f) => [f.slice(0, f.indexOf('=')).toLowerCase(), f.slice(f.indexOf('=') + 1)] as const),
    );
    const name = fields.get('accountname');
    const key = fields.get('accountkey');
    return name && key ? { name, key } : undefined;
  }
  return given && secrets.secret ? { name: given, key: secrets.secret } : undefined;
}

export class AzureUploader implements StorageUploader {
  locationOf(target: UploadTarget, key: string): string {
    return `${target.endpoint}/${target.config.bucket ?? ''}/${key}`;
  }

  async upload(target: UploadTarget, key: string, file: { path: string; contentType: string }, signal: AbortSignal): Promise<void> {
    const { config } = target;
    if (!config.bucket) throw new UploadFailed('storage_config has no bucket (the container)');
    const account = azureAccount(target.secrets);
    if (!account) throw new UploadFailed('storage_config has neither a connection string in access_key nor an account name and key (access_key and secret)');
    const { BlobServiceClient, StorageSharedKeyCredential } = await import('@azure/storage-blob');
    const service = new BlobServiceClient(target.endpoint, new StorageSharedKeyCredential(account.name, account.key), {
      // One attempt: a refusal is the answer, and the emulator's own timeout bounds the wait.
      retryOptions: { maxTries: 1 },
    });
    try {
      await service
        .getContainerClient(config.bucket)
        .getBlockBlobClient(key)
        .uploadFile(file.path, { blobHTTPHeaders: { blobContentType: file.contentType }, abortSignal: signal });
    } catch (err) {
      const e = err as RestErrorLike;
      const status = typeof e.statusCode === 'number' ? e.statusCode : null;
      throw new UploadFailed(`${e.code ? `${e.code}: ` : ''}${firstLine(err)}${status !== null ? ` (HTTP ${status})` : ''}`, status);
    }
  }
}
