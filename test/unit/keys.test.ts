import { createPublicKey, sign, verify } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../src/core/ids.js';
import { KeySlot, signingKeyFrom } from '../../src/core/keys.js';

const privateKey = new SeededIds('keys-test').rsaKey('participant-tokens');
const key = signingKeyFrom(privateKey);

describe('signingKeyFrom', () => {
  it('publishes the public JWK with kid, alg and use', () => {
    expect(key.publicJwk).toEqual({ kty: 'RSA', n: expect.stringMatching(/^[\w-]+$/), e: 'AQAB', kid: key.kid, alg: 'RS256', use: 'sig' });
    expect(Buffer.from(key.publicJwk.n, 'base64url')).toHaveLength(256);
  });

  it('the kid is the RFC 7638 thumbprint of the public key', async () => {
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: key.publicJwk.n, e: key.publicJwk.e }, 'sha256'));
  });

  it('never exposes private parameters in the JWK', () => {
    for (const field of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key.publicJwk).not.toHaveProperty(field);
  });

  it('the same key from a KeyObject or from its PKCS#8 PEM is the same signing key', () => {
    const pem = key.privatePem();
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const again = signingKeyFrom(pem);
    expect(again.kid).toBe(key.kid);
    expect(again.publicJwk).toEqual(key.publicJwk);
    expect(again.publicPem).toBe(key.publicPem);
  });

  it('publicPem is the SPKI PEM of the public key', () => {
    expect(key.publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(createPublicKey(key.publicPem).export({ format: 'jwk' })).toEqual({ kty: 'RSA', n: key.publicJwk.n, e: key.publicJwk.e });
  });

  it('signatures by the private key verify with the public key, PEM and JWK', async () => {
    const data = Buffer.from('hello');
    const signature = sign('sha256', data, key.privateKey);
    expect(verify('sha256', data, key.publicKey, signature)).toBe(true);
    expect(verify('sha256', data, createPublicKey(key.publicPem), signature)).toBe(true);
    const jwt = await new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(key.privateKey);
    const { payload } = await jwtVerify(jwt, await importJWK(key.publicJwk, 'RS256'));
    expect(payload).toEqual({ a: 1 });
  });

  it('another key has another kid, and its signatures do not verify', () => {
    const other = signingKeyFrom(new SeededIds('keys-test-other').rsaKey('participant-tokens'));
    expect(other.kid).not.toBe(key.kid);
    const data = Buffer.from('hello');
    expect(verify('sha256', data, key.publicKey, sign('sha256', data, other.privateKey))).toBe(false);
  });
});

describe('KeySlot', () => {
  it('makes its key on first use, once: warm() is that first use, made early', () => {
    let made = 0;
    const slot = new KeySlot(() => {
      made += 1;
      return key;
    });
    expect(made).toBe(0);
    slot.warm();
    expect(made).toBe(1);
    expect(slot.get()).toBe(key);
    slot.warm();
    expect(made).toBe(1);
  });

  it('warm() keeps a key that was set', () => {
    let made = 0;
    const slot = new KeySlot(() => {
      made += 1;
      return key;
    });
    const other = signingKeyFrom(new SeededIds('keys-test').rsaKey('webhooks'));
    slot.set(other);
    slot.warm();
    expect(made).toBe(0);
    expect(slot.get()).toBe(other);
  });
});
