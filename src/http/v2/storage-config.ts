// What the emulator keeps of a storage config sent with a recording: everything but the secrets
// (access_key, secret_key/secret, password, private_key), which are accepted and dropped here so
// that no read path can ever show them.
import type { z } from 'zod';
import type { StorageConfig } from '../../domain/models.js';
import type { storageConfigBody } from './schemas.js';

export function keptStorageConfig(sc: z.output<typeof storageConfigBody>): Omit<StorageConfig, 'id'> {
  return {
    type: sc.type,
    region: sc.region ?? null,
    bucket: sc.bucket ?? null,
    path: sc.path ?? null,
    host: sc.host ?? null,
    username: sc.username ?? null,
    port: sc.port ?? null,
  };
}
