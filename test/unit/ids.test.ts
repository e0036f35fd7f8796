import { createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RandomIds, SeededIds, createIdGenerator, nameBasedUuid, unseededFraction, type IdGenerator } from '../../src/core/ids.js';
import { deterministicRsaKey } from '../../src/core/rsa-keygen.js';
import { signingKeyFrom } from '../../src/core/keys.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TOKEN = /^[0-9A-Za-z]*$/;

/** A mixed sequence of draws, as the services make them. */
function draws(g: IdGenerator): string[] {
  return [g.uuid(), g.token(32), g.uuid(), g.token(8), g.token(64), g.uuid()];
}

describe('createIdGenerator', () => {
  it('is seeded with a seed and random without one', () => {
    expect(createIdGenerator('s')).toBeInstanceOf(SeededIds);
    expect(createIdGenerator('s').seeded).toBe(true);
    expect(createIdGenerator(undefined)).toBeInstanceOf(RandomIds);
    expect(createIdGenerator(undefined).seeded).toBe(false);
  });
});

describe('SeededIds', () => {
  it('the same seed draws the same sequence', () => {
    expect(draws(new SeededIds('alpha'))).toEqual(draws(new SeededIds('alpha')));
  });

  it('another seed draws another sequence, with no value in common', () => {
    const a = draws(new SeededIds('alpha'));
    const b = draws(new SeededIds('beta'));
    for (const v of a) expect(b).not.toContain(v);
  });

  it('is reproducible across processes and versions (pinned values for "test-seed")', () => {
    const g = new SeededIds('test-seed');
    expect([g.uuid(), g.uuid(), g.token(32), g.token(1)]).toEqual([
      '918b7fab-fe4d-41a7-8ef9-99209a50b51a',
      'c7221388-e501-449e-8e8f-30eb71716d01',
      'OLzHZ4VCWUi2ULoEd9yztvvZjLd2L2J9',
      'T',
    ]);
  });

  it('draws v4 UUIDs, all different', () => {
    const g = new SeededIds('uuids');
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const id = g.uuid();
      expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(2_000);
  });

  it.each([0, 1, 2, 8, 21, 32, 33, 64, 100, 500])('token(%i) has that many alphanumeric characters', (size) => {
    const t = new SeededIds('tokens').token(size);
    expect(t).toHaveLength(size);
    expect(t).toMatch(TOKEN);
  });

  it('token(1) terminates for a seed whose first bytes are all rejected (seed-326 used to loop forever)', () => {
    expect(new SeededIds('seed-326').token(1)).toMatch(/^[0-9A-Za-z]$/);
  });

  it('tokens of one seed are not repeats of each other', () => {
    const g = new SeededIds('distinct');
    const tokens = Array.from({ length: 500 }, () => g.token(32));
    expect(new Set(tokens).size).toBe(500);
    // A long token is not a short one repeated.
    const long = g.token(96);
    expect(long.slice(0, 32)).not.toBe(long.slice(32, 64));
  });

  it('uses every character of the alphabet over many tokens', () => {
    const g = new SeededIds('alphabet');
    const chars = new Set(Array.from({ length: 200 }, () => g.token(32)).join(''));
    expect(chars.size).toBe(62);
  });
});

describe('position and setPosition', () => {
  it.each([
    ['seeded', () => new SeededIds('pos')],
    ['random', () => new RandomIds()],
  ])('%s: every uuid or token is one draw; reset goes back to 0', (_name, make) => {
    const g = make();
    expect(g.position()).toBe(0);
    g.uuid();
    g.token(32);
    g.token(1);
    expect(g.position()).toBe(3);
    g.reset();
    expect(g.position()).toBe(0);
  });

  it('restoring a position replays the sequence from there', () => {
    const g = new SeededIds('replay');
    g.uuid();
    g.token(10);
    const at = g.position();
    const after = draws(g);
    draws(g);
    g.setPosition(at);
    expect(g.position()).toBe(at);
    expect(draws(g)).toEqual(after);
  });

  it('a fresh generator moved to a position continues where another one was', () => {
    const a = new SeededIds('continue');
    draws(a);
    const b = new SeededIds('continue');
    b.setPosition(a.position());
    expect(draws(b)).toEqual(draws(a));
  });

  it('deriving a key does not move the position', () => {
    const g = new SeededIds('keys-do-not-count');
    g.uuid();
    g.rsaKey('participant-tokens');
    expect(g.position()).toBe(1);
  });
});

describe('RandomIds', () => {
  it('draws v4 UUIDs and alphanumeric tokens that differ', () => {
    const g = new RandomIds();
    const a = g.uuid();
    expect(a).toMatch(UUID_V4);
    expect(g.uuid()).not.toBe(a);
    const t = g.token(32);
    expect(t).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(g.token(32)).not.toBe(t);
  });
});

describe('rsaKey', () => {
  it('seeded: the same seed and purpose give the same key; another purpose or seed another key', () => {
    const kid = (g: IdGenerator, purpose: string) => signingKeyFrom(g.rsaKey(purpose)).kid;
    const a = kid(new SeededIds('rsa-a'), 'participant-tokens');
    expect(kid(new SeededIds('rsa-a'), 'participant-tokens')).toBe(a);
    expect(kid(new SeededIds('rsa-a'), 'webhooks')).not.toBe(a);
    expect(kid(new SeededIds('rsa-b'), 'participant-tokens')).not.toBe(a);
  });

  it('seeded: pinned for "test-seed" (tokens verify across runs)', () => {
    expect(signingKeyFrom(new SeededIds('test-seed').rsaKey('participant-tokens')).kid).toBe('PVd2hak1Hmf777CDSHKQSYt9IaI4U-RQPu2R_JL6fQw');
  });

  it.each([
    ['seeded', new SeededIds('rsa-valid')],
    ['random', new RandomIds()],
  ])('%s: a 2048-bit RSA key with e = 65537 that signs and verifies', (_name, g) => {
    const key = g.rsaKey('participant-tokens');
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
    const data = Buffer.from('payload');
    const signature = sign('sha256', data, key);
    expect(verify('sha256', data, createPublicKey(key), signature)).toBe(true);
    expect(verify('sha256', Buffer.from('other'), createPublicKey(key), signature)).toBe(false);
  });

  it('deterministicRsaKey depends on its byte source only (no cache involved)', () => {
    const source = (seed: number) => {
      let x = seed;
      return (len: number) => Uint8Array.from({ length: len }, () => (x = (x * 1103515245 + 12345) % 2 ** 31) & 0xff);
    };
    const jwk = (seed: number) => deterministicRsaKey(source(seed), 512).export({ format: 'jwk' });
    expect(jwk(7)).toEqual(jwk(7));
    expect(jwk(8).n).not.toBe(jwk(7).n);
  });
});

describe('RandomIds', () => {
  it('draws distinct v4 UUIDs across refills of its random pool', () => {
    const ids = new RandomIds();
    const seen = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const id = ids.uuid();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(1_000);
    expect(ids.position()).toBe(1_000);
  });
});

describe('nameBasedUuid', () => {
  it('is the version 5 UUID of RFC 9562 (DNS namespace, "www.example.com")', () => {
    expect(nameBasedUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('depends on the namespace and the name only', () => {
    const ns = '4b0f2a6e-8c1d-4e57-9a3b-d2f6c7e81a05';
    expect(nameBasedUuid(ns, 'a')).toBe(nameBasedUuid(ns, 'a'));
    expect(nameBasedUuid(ns, 'a')).not.toBe(nameBasedUuid(ns, 'b'));
    expect(nameBasedUuid('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'a')).not.toBe(nameBasedUuid(ns, 'a'));
  });
});

describe('unseededFraction', () => {
  it('draws numbers in [0, 1), spread over the whole of it, not from any seed', () => {
    const draws = Array.from({ length: 2000 }, () => unseededFraction());
    for (const d of draws) {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(1);
    }
    // 2000 draws: each tenth of [0, 1) gets some (the chance that one gets none is about 10 × 0.9^2000).
    expect(new Set(draws.map((d) => Math.floor(d * 10))).size).toBe(10);
    expect(new Set(draws).size).toBeGreaterThan(1990);
  });
});
