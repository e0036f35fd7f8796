// `sftp`: the config names its own host and port; the emulator logs in there with PASSWORD or KEY
// auth (the schema's auth_method; with KEY, `password` is the private key's passphrase), makes
// the folders of `path` as needed and writes the file. The host's key is not checked: the hosts
// an emulator meets are test servers whose keys are made afresh (the emulator connects only to
// this machine's loopback and to the hosts --storage-endpoint sftp=HOST allows). The client is
// loaded on the first upload.
import type { ConnectConfig, SFTPWrapper } from 'ssh2';
import path from 'node:path';
import { firstLine, UploadFailed, type StorageUploader, type UploadTarget } from './storage-uploader.js';

export class SftpUploader implements StorageUploader {
  locationOf(target: UploadTarget, key: string): string {
    const { host, port, username } = target.config;
    const at = `${username ? `${username}@` : ''}${host ?? ''}:${port || 22}`;
    return `sftp://${at}${key.startsWith('/') ? '' : '/~/'}${key}`;
  }

  async upload(target: UploadTarget, key: string, file: { path: string }, signal: AbortSignal): Promise<void> {
    const { config, secrets } = target;
    if (!config.host) throw new UploadFailed('storage_config has no host');
    if (!config.username) throw new UploadFailed('storage_config has no username');
    const auth: ConnectConfig = config.authMethod === 'KEY' ? { privateKey: secrets.privateKey, passphrase: secrets.password } : { password: secrets.password };
    if (config.authMethod === 'KEY' && !secrets.privateKey) throw new UploadFailed('storage_config has auth_method KEY but no private_key');
    if (config.authMethod !== 'KEY' && secrets.password === undefined) throw new UploadFailed('storage_config has no password (auth_method PASSWORD)');

    const { Client } = (await import('ssh2')).default;
    const conn = new Client();
    const closed = () => conn.destroy();
    signal.addEventListener('abort', closed, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        conn.once('ready', resolve);
        conn.once('error', reject);
        signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
        try {
          conn.connect({ host: config.host!, port: config.port || 22, username: config.username!, ...auth });
        } catch (err) {
          // A key that cannot be parsed throws here.
          reject(err);
        }
      });
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) => conn.sftp((err, s) => (err ? reject(err) : resolve(s))));
      await makeFolders(sftp, path.posix.dirname(key));
      await new Promise<void>((resolve, reject) => sftp.fastPut(file.path, key, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      if (err instanceof UploadFailed) throw err;
      throw new UploadFailed(plain(err));
    } finally {
      signal.removeEventListener('abort', closed);
      conn.end();
    }
  }
}

/** mkdir -p, each folder once: one that exists already is fine. */
async function makeFolders(sftp: SFTPWrapper, dir: string): Promise<void> {
  if (dir === '.' || dir === '/' || dir === '') return;
  const exists = await new Promise<boolean>((resolve) => sftp.stat(dir, (err) => resolve(!err)));
  if (exists) return;
  await makeFolders(sftp, path.posix.dirname(dir));
  await new Promise<void>((resolve, reject) =>
    sftp.mkdir(dir, (err) => (err ? reject(new UploadFailed(`cannot make the folder ${dir}: ${firstLine(err)}`)) : resolve())),
  );
}

/** ssh2's errors as a person reads them. */
function plain(err: unknown): string {
  const e = err as { level?: string; code?: string | number };
  if (e.level === 'client-authentication') return 'the SFTP host refused the login (all configured authentication methods failed)';
  if (e.code === 2) return `no such file or folder on the SFTP host: ${firstLine(err)}`;
  if (e.code === 3) return `the SFTP host denied the write: ${firstLine(err)}`;
  return firstLine(err);
}
