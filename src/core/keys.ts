// An RSA signing key with its public forms (JWK with kid, SPKI PEM). Used for participant
// tokens and for webhook signatures.
import { createPrivateKey, createPublicKey, createHash, type KeyObject } from 'node:crypto';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig' };
  publicPem: string;
  /** PKCS#8 PEM, for fixtures and state export only. */
  privatePem(): string;
}

export function signingKeyFrom(privateKey: KeyObject | string): SigningKey {
  const priv = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const pub = createPublicKey(priv);
  const jwk = pub.export({ format: 'jwk' }) as { n: string; e: string };
  // RFC 7638 thumbprint: stable for the same key.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
  return {
    kid,
    privateKey: priv,
    publicKey: pub,
    publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' },
    publicPem: pub.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: () => priv.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

/**
 * A key made on first use (generating or deriving one costs tens to hundreds of ms, which a run
 * that never needs it should not pay) and replaceable (a state import brings its own keys).
 */
export class KeySlot {
  private key: SigningKey | undefined;

  constructor(private readonly make: () => SigningKey) {}

  get(): SigningKey {
    this.key ??= this.make();
    return this.key;
  }

  /** Makes the key now, when it is not made yet: for a moment when the cost is better paid early. */
  warm(): void {
    this.get();
  }

  set(key: SigningKey | undefined): void {
    this.key = key;
  }
}
