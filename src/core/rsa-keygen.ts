// Deterministic RSA key generation from a byte source. Node cannot seed its own key
// generator, and `--seed` promises reproducible keys (participant tokens and webhook
// signatures are then byte-identical across runs), so seeded runs derive their key pairs
// here. Random runs use node:crypto directly (see ids.ts).
//
// Why our own code and not a library's (looked at in November 2026): of the maintained
// JavaScript libraries, only node-forge (1.4.x) generates an RSA key pair from a caller's random
// source (`pki.rsa.generateKeyPair({ bits, prng })`), and there it falls back to its pure-JS big
// integers: a 2048-bit key took 1.2 to 4.9 s on this project's machine, against 0.1 to 0.4 s here
// on native BigInt, for the same byte streams, and seeded starts derive two keys. It would also
// give every existing seed a new key (the pinned kids in test/unit/ids.test.ts and keys.test.ts),
// and add 1.8 MB to the production install and the image. micro-rsa-dsa-dh's keygen takes a
// random source but keeps neither p nor q, which the private key's CRT parts need; node-rsa and
// jsrsasign take none. What is ours is small and pinned by tests: candidates, a sieve of small
// primes, one Fermat test and Miller-Rabin, and PKCS#1's CRT parts checked against RFC 8017.
import { checkPrimeSync, createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * The first 600 odd primes (3 to 4421), for trial division. Sieved: trial division of every odd
 * number by the primes found so far took ~9 ms of every start, seeded or not.
 */
const SMALL_PRIMES: bigint[] = (() => {
  const bound = 4421;
  const composite = new Uint8Array(bound + 1);
  const out: number[] = [];
  for (let n = 3; n <= bound; n += 2) {
    if (composite[n]) continue;
    out.push(n);
    for (let m = n * n; m <= bound; m += 2 * n) composite[m] = 1;
  }
  return out.map(BigInt);
})();

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

function fromBytes(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function passesTrialDivision(n: bigint): boolean {
  for (const p of SMALL_PRIMES) if (n % p === 0n) return false;
  return true;
}

/**
 * Miller-Rabin: false when one of `rounds` bases drawn from `nextBytes` proves the odd n > 4
 * composite; true otherwise (n is prime but for a chance of at most 4^-rounds).
 */
export function millerRabin(n: bigint, nextBytes: (len: number) => Uint8Array, rounds: number): boolean {
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s += 1;
  }
  const byteLen = Math.ceil(n.toString(16).length / 2);
  for (let i = 0; i < rounds; i++) {
    const a = 2n + (fromBytes(nextBytes(byteLen)) % (n - 4n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let composite = true;
    // Stryker disable next-line EqualityOperator: the extra squaring gives a^(n-1) mod n, which is never n-1 for an odd n, so the test answers the same.
    for (let r = 1; r < s; r++) {
      x = (x * x) % n;
      if (x === n - 1n) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

function randomPrime(bits: number, nextBytes: (len: number) => Uint8Array): bigint {
  const byteLen = bits / 8;
  for (;;) {
    // Top two bits set (so p*q has exactly 2*bits bits), odd.
    const candidate = fromBytes(nextBytes(byteLen)) | (3n << BigInt(bits - 2)) | 1n;
    // Cheapest filters first: trial division, OpenSSL's primality test, one Fermat test, then Miller-Rabin.
    // Stryker disable next-line ConditionalExpression: a speed filter; the composites it turns away fail OpenSSL's and the Fermat test below, before any draw, so the keys are the same without it
    if (!passesTrialDivision(candidate)) continue;
    // OpenSSL's test (in C) turns away most composites at their first witness, a fraction of the
    // Fermat test's cost here, and draws nothing from `nextBytes`. It answers composite only with a
    // witness, and every composite but a base-2 Fermat pseudoprime fails the Fermat test below
    // before any draw: the keys stay those of the seed. (A pseudoprime, turned away here before the
    // Miller-Rabin below draws its bases, would shift the draws; for a random 1024-bit number, a
    // chance below 2^-40.) OpenSSL 3 runs the rounds the size needs whatever `checks` asks (a
    // 1024-bit prime: about 16 ms with 1 and with 64), so on a prime the tests below only repeat its
    // verdict, for their seeded draws (about 22 ms in JavaScript).
    // Stryker disable next-line ObjectLiteral,ConditionalExpression: a speed filter (as above); more rounds, or none, give the same keys
    if (!checkPrimeSync(candidate, { checks: 1 })) continue;
    // Stryker disable next-line ConditionalExpression: behind OpenSSL's test it turns away only the rare composite that passed that test's random rounds, so that such a one never reaches the seeded draws below; the pinned keys never meet one
    if (modPow(2n, candidate - 1n, candidate) !== 1n) continue;
    if (millerRabin(candidate, nextBytes, 8)) return candidate;
  }
}

function toB64url(n: bigint): string {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64url');
}

/** A 2048-bit RSA private key (e = 65537) derived only from `nextBytes`. */
export function deterministicRsaKey(nextBytes: (len: number) => Uint8Array, bits = 2048): KeyObject {
  const e = 65537n;
  for (;;) {
    const p = randomPrime(bits / 2, nextBytes);
    const q = randomPrime(bits / 2, nextBytes);
    if (p === q) continue;
    const phi = (p - 1n) * (q - 1n);
    if (phi % e === 0n) continue;
    // Stryker disable next-line EqualityOperator: p and q are never equal here (the line before draws again when they are), so > and >= agree.
    const [big, small] = p > q ? [p, q] : [q, p];
    const n = big * small;
    const d = modInverse(e, phi);
    return createPrivateKey({
      format: 'jwk',
      key: {
        kty: 'RSA',
        n: toB64url(n),
        e: toB64url(e),
        d: toB64url(d),
        p: toB64url(big),
        q: toB64url(small),
        dp: toB64url(d % (big - 1n)),
        dq: toB64url(d % (small - 1n)),
        qi: toB64url(modInverse(small, big)),
      },
    });
  }
}
