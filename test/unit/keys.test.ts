import { checkPrimeSync, createHash, createPublicKey, sign, verify } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../src/core/ids.js';
import { KeySlot, signingKeyFrom } from '../../src/core/keys.js';
import { deterministicRsaKey, millerRabin } from '../../src/core/rsa-keygen.js';

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

describe('keys derived from a seed', () => {
  // `--seed` promises the same key, and so byte-identical signatures, in every run and every
  // version (docs/webhooks.md): a receiver may keep the public key of a seeded emulator. This is
  // the key the seed "keys-test" has always given for participant tokens; two runs of a changed
  // derivation would agree with each other, so only a pinned value notices the change.
  it('a seed gives the key it has always given (the SHA-256 of its public key, pinned)', () => {
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    expect(createHash('sha256').update(spki).digest('hex')).toBe('bda1868e364208b2f875aa253a9f22f1c3315cb121fa1e70d541e5e64b4277ea');
  });

  /** A byte stream: SHA-256 of a label and a counter; `blocks()` says how many hashes it made. */
  const stream = (label: string) => {
    let blocks = 0;
    let pool = Buffer.alloc(0);
    return Object.assign(
      (len: number) => {
        while (pool.length < len) pool = Buffer.concat([pool, createHash('sha256').update(`${label}:${blocks++}`).digest()]);
        const out = pool.subarray(0, len);
        pool = pool.subarray(len);
        return out;
      },
      { blocks: () => blocks },
    );
  };

  // SeededIds memoizes keys per seed for the whole process, so the pin above sees a key derived
  // once, possibly before a change: this one derives afresh from its own byte stream, and also
  // pins how many SHA-256 blocks the derivation drew (every candidate, test and base it used). In
  // this stream a Miller-Rabin base drawn in place of the cheap Fermat filter would swallow the
  // draw that holds a prime, so dropping the filter changes the key (not so in every stream).
  it('the derivation itself gives the key it has always given for a fixed byte stream, drawing the same bytes', () => {
    const next = stream('stream-0');
    const spki = createPublicKey(deterministicRsaKey(next)).export({ format: 'der', type: 'spki' });
    expect(createHash('sha256').update(spki).digest('hex')).toBe('51403235e40125f59150adb9bbc38b2adaba77f39c61e713d8916e853115c3b6');
    expect(next.blocks()).toBe(980);
  });

  // The tests below derive afresh too, with 512-bit keys to keep them quick: the derivation does not depend on the size.
  const int = (b64url: string | undefined) => BigInt(`0x${Buffer.from(b64url!, 'base64url').toString('hex')}`);
  /** The key's private parts, checked against one another as PKCS#1 defines them (RFC 8017, 3.2). */
  const wellFormed = (privateJwk: ReturnType<typeof privateKey.export>) => {
    const jwk = privateJwk as Record<string, string>;
    const [n, e, d, p, q] = ['n', 'e', 'd', 'p', 'q'].map((k) => int(jwk[k]));
    expect(p! > q!).toBe(true);
    expect(p! * q!).toBe(n);
    expect((e! * d!) % ((p! - 1n) * (q! - 1n))).toBe(1n);
    expect(int(jwk.dp)).toBe(d! % (p! - 1n));
    expect(int(jwk.dq)).toBe(d! % (q! - 1n));
    expect((int(jwk.qi) * q!) % p!).toBe(1n);
  };
  /** A stream that hands out the given numbers at the given draws (counted from 0), and `rest` otherwise. */
  const scripted = (at: Record<number, bigint>, rest: (len: number) => Uint8Array) => {
    let draw = 0;
    return (len: number) => {
      const given = at[draw++];
      return given === undefined ? rest(len) : Buffer.from(given.toString(16).padStart(len * 2, '0'), 'hex');
    };
  };
  /** The first prime from `start` up, by steps of `step` (both odd and even steps keep the parity of start). */
  const primeFrom = (start: bigint, step: bigint) => {
    let n = start;
    while (!checkPrimeSync(n)) n += step;
    return n;
  };
  const TOP = 3n << 254n; // a 256-bit candidate has its top two bits set, as the derivation makes them

  it('derives a well-formed key, the larger prime first, whichever of the two was drawn first', () => {
    const largerFirst = new Set<boolean>();
    for (const label of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const draws: bigint[] = [];
      const bytes = stream(label);
      const jwk = deterministicRsaKey((len) => {
        const out = bytes(len);
        draws.push(BigInt(`0x${Buffer.from(out).toString('hex')}`) | TOP | 1n);
        return out;
      }, 512).export({ format: 'jwk' });
      wellFormed(jwk);
      largerFirst.add(draws.indexOf(int(jwk.p)) < draws.indexOf(int(jwk.q)));
    }
    // Among these six streams the larger prime comes first in some, second in others.
    expect([...largerFirst].sort()).toEqual([false, true]);
  });

  it('draws again when both primes come out the same', () => {
    const same = primeFrom(TOP | 1n, 2n);
    // Draw 0 is the first candidate, draws 1 to 8 its Miller-Rabin bases, draw 9 the second candidate.
    const jwk = deterministicRsaKey(scripted({ 0: same, 9: same }, stream('same')), 512).export({ format: 'jwk' });
    wellFormed(jwk);
    expect([int(jwk.p), int(jwk.q)]).not.toContain(same);
  });

  it('draws again when e = 65537 divides p - 1, since d = e⁻¹ mod (p-1)(q-1) would not exist', () => {
    const e = 65537n;
    // p = 2·e·k + 1, the first such prime with the top two bits set.
    const k0 = TOP / (2n * e) + 1n;
    const bad = primeFrom(2n * e * k0 + 1n, 2n * e);
    expect((bad - 1n) % e).toBe(0n);
    const jwk = deterministicRsaKey(scripted({ 0: bad }, stream('divisible')), 512).export({ format: 'jwk' });
    wellFormed(jwk);
    expect([int(jwk.p), int(jwk.q)]).not.toContain(bad);
  });

  it('stores the larger prime first, so the private key exports the same bytes in every run', () => {
    const jwk = privateKey.export({ format: 'jwk' });
    const [p, q] = [BigInt(`0x${Buffer.from(jwk.p!, 'base64url').toString('hex')}`), BigInt(`0x${Buffer.from(jwk.q!, 'base64url').toString('hex')}`)];
    expect(p > q).toBe(true);
    expect(p * q).toBe(BigInt(`0x${Buffer.from(jwk.n!, 'base64url').toString('hex')}`));
  });
});

describe('the primality test behind seeded keys', () => {
  // The bases come from a byte stream, as in key derivation: here SHA-256 of a counter.
  let drawn = 0;
  const draw = (len: number) => {
    let out = Buffer.alloc(0);
    while (out.length < len) out = Buffer.concat([out, createHash('sha256').update(`miller-rabin:${drawn++}`).digest()]);
    return out.subarray(0, len);
  };
  // Primes, including ones just below a power of two (Mersenne primes 2^61-1 and 2^89-1).
  const PRIMES = [7n, 13n, 1_000_003n, 2n ** 61n - 1n, 2n ** 89n - 1n, 170_141_183_460_469_231_731_687_303_715_884_105_727n];
  // Composites a single Fermat test to base 2 lets through: Carmichael numbers (561 = 3·11·17,
  // 41041, 825265) and strong pseudoprimes to base 2 (2047 = 23·89, 3215031751 = 151·751·28351),
  // and a product of two large primes.
  const COMPOSITES = [561n, 2047n, 41_041n, 825_265n, 3_215_031_751n, (2n ** 61n - 1n) * 1_000_003n];

  it.each(PRIMES)('%s is prime', (n) => {
    expect(millerRabin(n, draw, 8)).toBe(true);
  });

  it.each(COMPOSITES)('%s is composite', (n) => {
    expect(millerRabin(n, draw, 8)).toBe(false);
  });
});
