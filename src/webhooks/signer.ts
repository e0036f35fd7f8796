// Webhook signatures (CONTRACT §5): `dyte-signature` is the base64 RSA-SHA256 (PKCS#1 v1.5)
// signature over exactly the body bytes sent. Receivers verify it with the public key served at
// GET /.well-known/webhooks.json.
import { sign, verify } from 'node:crypto';
import type { SigningKey } from '../core/keys.js';

export interface WebhookKeysDocument {
  /** SPKI PEM. */
  public_key: string;
  keys: SigningKey['publicJwk'][];
}

export class WebhookSigner {
  private readonly key: () => SigningKey;

  /** A key, or a function that makes it on first use (generating one is slow). */
  constructor(key: SigningKey | (() => SigningKey)) {
    this.key = typeof key === 'function' ? key : () => key;
  }

  /** Deterministic: the same bytes always give the same signature (PKCS#1 v1.5). */
  sign(body: Buffer): string {
    return sign('sha256', body, this.key().privateKey).toString('base64');
  }

  verify(body: Buffer, signature: string): boolean {
    return verify('sha256', body, this.key().publicKey, Buffer.from(signature, 'base64'));
  }

  document(): WebhookKeysDocument {
    const key = this.key();
    return { public_key: key.publicPem, keys: [key.publicJwk] };
  }
}
