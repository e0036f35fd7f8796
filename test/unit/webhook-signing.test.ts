import { createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';

const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const signer = new WebhookSigner(KEY);
const TEXT = '{"event":"meeting.started","meeting":{"id":"m1","title":"Ünïcødé ✓"}}';
const BODY = Buffer.from(TEXT, 'utf8');

describe('WebhookSigner', () => {
  it('signs with RSA-SHA256 (PKCS#1 v1.5): deterministic, base64, verifiable with the published PEM and JWK', async () => {
    const signature = await signer.sign(TEXT);
    expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(signature, 'base64')).toHaveLength(256); // 2048-bit key
    expect(await new WebhookSigner(KEY).sign(TEXT)).toBe(signature);
    const doc = signer.document();
    const fromPem = createPublicKey(doc.public_key);
    const fromJwk = createPublicKey({ key: doc.keys[0]!, format: 'jwk' });
    for (const key of [fromPem, fromJwk]) expect(verify('sha256', BODY, key, Buffer.from(signature, 'base64'))).toBe(true);
    expect(signer.verify(BODY, signature)).toBe(true);
  });

  it.each([
    ['one byte more', Buffer.concat([BODY, Buffer.from(' ')])],
    ['re-serialized with whitespace', Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8')), null, 2))],
    ['a different encoding of the same text', Buffer.from(BODY.toString('utf8'), 'latin1')],
  ])('does not verify over %s', async (_name, other) => {
    expect(signer.verify(other, await signer.sign(TEXT))).toBe(false);
  });

  it('publishes {public_key: SPKI PEM, keys: [JWK with kid and alg RS256]}', () => {
    const doc = signer.document();
    expect(Object.keys(doc)).toEqual(['public_key', 'keys']);
    expect(doc.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(doc.keys).toEqual([{ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: KEY.kid, alg: 'RS256', use: 'sig' }]);
    expect(doc.public_key).not.toContain('PRIVATE');
  });

  it('derives the same key from the same seed, and a different one from another purpose', () => {
    const again = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
    expect(again.publicPem).toBe(KEY.publicPem);
    const tokens = signingKeyFrom(new SeededIds('test-seed').rsaKey('participant-tokens'));
    expect(tokens.publicPem).not.toBe(KEY.publicPem);
  });
});

describe('WebhookSigner signature reuse', () => {
  it('signs a body text once for all its deliveries, over its UTF-8 bytes, and forgets on a key change', async () => {
    let key = signingKeyFrom(new SeededIds('reuse-a').rsaKey('webhooks'));
    const signer = new WebhookSigner(() => key);
    const text = JSON.stringify({ event: 'recording.statusUpdate', recording: { id: 'r1', status: 'UPLOADED', title: 'Café ✓' } });
    // Deliveries of one event ask at once: one signing serves them all.
    const [a, b] = [signer.sign(text), signer.sign(text)];
    expect(a).toBe(b);
    const first = await a;
    expect(await signer.sign(text)).toBe(first);
    expect(first).toBe(sign('sha256', Buffer.from(text, 'utf8'), key.privateKey).toString('base64'));
    key = signingKeyFrom(new SeededIds('reuse-b').rsaKey('webhooks'));
    const second = await signer.sign(text);
    expect(second).not.toBe(first);
    expect(verify('sha256', Buffer.from(text, 'utf8'), key.publicKey, Buffer.from(second, 'base64'))).toBe(true);
  });

  // A state import (PUT /_emulator/state) can bring another signing key while a delivery's body
  // is being signed with the one before.
  it('never reuses a signature made with a key that was replaced while it was being made', async () => {
    const before = signingKeyFrom(new SeededIds('reuse-a').rsaKey('webhooks'));
    const after = signingKeyFrom(new SeededIds('reuse-b').rsaKey('webhooks'));
    let key = before;
    const signer = new WebhookSigner(() => key);
    const text = JSON.stringify({ event: 'meeting.started', meeting: { id: 'm1', title: 'Key change' } });
    const signing = signer.sign(text);
    key = after;
    // Another body signed with the new key meanwhile; then the old signing ends.
    await signer.sign('{"event":"meeting.ended"}');
    const old = await signing;
    expect(verify('sha256', Buffer.from(text, 'utf8'), before.publicKey, Buffer.from(old, 'base64'))).toBe(true);
    const now = await signer.sign(text);
    expect(verify('sha256', Buffer.from(text, 'utf8'), after.publicKey, Buffer.from(now, 'base64'))).toBe(true);
    expect(now).toBe(sign('sha256', Buffer.from(text, 'utf8'), after.privateKey).toString('base64'));
  });
});

describe('WebhookSigner when signing fails', () => {
  it('passes the failure on and keeps nothing of it: the next attempt signs again', async () => {
    let key = { ...KEY, privateKey: KEY.publicKey }; // a public key cannot sign
    const signer = new WebhookSigner(() => key);
    await expect(signer.sign(TEXT)).rejects.toThrow();
    key = KEY; // the same kid: nothing is cleared by a key change
    expect(await signer.sign(TEXT)).toBe(sign('sha256', BODY, KEY.privateKey).toString('base64'));
  });
});
