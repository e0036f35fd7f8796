// Webhook signatures (docs/webhooks.md): `dyte-signature` is the base64 RSA-SHA256 (PKCS#1 v1.5)
// signature over exactly the body bytes sent. Receivers verify it with the public key served at
// GET /.well-known/webhooks.json.
import { sign, verify } from 'node:crypto';
import type { SigningKey } from '../core/keys.js';

export interface WebhookKeysDocument {
  /** SPKI PEM. */
  public_key: string;
  keys: SigningKey['publicJwk'][];
}

/** Bodies whose signatures are remembered (the newest ones; a body is at most 1 MiB, usually ~1 KB). */
const RECENT_SIGNATURES = 64;
const RECENT_BODY_MAX_CHARS = 64 * 1024;

export class WebhookSigner {
  private readonly key: () => SigningKey;
  private readonly recent = new Map<string, string>();
  private cachedKid: string | undefined;

  /** A key, or a function that makes it on first use (generating one is slow). */
  constructor(key: SigningKey | (() => SigningKey)) {
    this.key = typeof key === 'function' ? key : () => key;
  }

  /**
   * Deterministic: the same bytes always give the same signature (PKCS#1 v1.5). An event goes to
   * every subscribed webhook with the same body, so signatures of recent bodies are remembered:
   * one RSA signature per event instead of one per delivery (signing was 46% of fan-out time).
   */
  sign(body: Buffer | string): string {
    const key = this.key();
    if (typeof body !== 'string' || body.length > RECENT_BODY_MAX_CHARS) return sign('sha256', Buffer.from(body), key.privateKey).toString('base64');
    if (this.cachedKid !== key.kid) {
      this.recent.clear();
      this.cachedKid = key.kid;
    }
    let signature = this.recent.get(body);
    if (signature === undefined) {
      signature = sign('sha256', Buffer.from(body, 'utf8'), key.privateKey).toString('base64');
      if (this.recent.size >= RECENT_SIGNATURES) this.recent.delete(this.recent.keys().next().value!);
      this.recent.set(body, signature);
    }
    return signature;
  }

  verify(body: Buffer, signature: string): boolean {
    return verify('sha256', body, this.key().publicKey, Buffer.from(signature, 'base64'));
  }

  document(): WebhookKeysDocument {
    const key = this.key();
    return { public_key: key.publicPem, keys: [key.publicJwk] };
  }
}
