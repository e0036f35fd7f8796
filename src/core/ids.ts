// The one place that makes randomness. Two implementations behind one interface:
// RandomIds (crypto-strong, the default) and SeededIds (`--seed`: every id, key and token is
// reproducible, so two runs with the same requests answer byte-identical bodies).
import { createHash, generateKeyPairSync, randomFillSync, randomInt, type KeyObject } from 'node:crypto';
import { customAlphabet, customRandom } from 'nanoid';
import { v4 as uuidv4, v5 as uuidv5 } from 'uuid';
import { flat } from './strings.js';
import { deterministicRsaKey } from './rsa-keygen.js';

const TOKEN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface IdGenerator {
  readonly seeded: boolean;
  /** A v4 UUID. */
  uuid(): string;
  /** An opaque alphanumeric token (stream keys, API keys, signatures' nonces). */
  token(size: number): string;
  /** How many draws were made: exported with the state so a restored run continues the sequence. */
  position(): number;
  setPosition(position: number): void;
  /** A fresh RSA private key (2048 bits). Seeded runs derive it from the seed and `purpose`. */
  rsaKey(purpose: string): KeyObject;
  reset(): void;
}

export class RandomIds implements IdGenerator {
  readonly seeded = false;
  private draws = 0;

  // Stryker disable next-line BlockStatement: the counter is already 0 from its field initialiser, so reset() in the constructor changes nothing.
  constructor() {
    this.reset();
  }

  reset(): void {
    this.draws = 0;
  }

  private readonly pool = Buffer.alloc(16 * 256);
  private poolOffset = this.pool.length;

  uuid(): string {
    this.draws += 1;
    // Stryker disable next-line ConditionalExpression: the UUID stays a random version-4 UUID; only the source of its random bytes changes.
    if (this.poolOffset === this.pool.length) {
      randomFillSync(this.pool);
      this.poolOffset = 0;
    }
    const bytes = this.pool.subarray(this.poolOffset, this.poolOffset + 16);
    this.poolOffset += 16;
    // Stryker disable next-line ObjectLiteral: the UUID stays a random version-4 UUID; only the source of its random bytes changes.
    return flat(uuidv4({ random: bytes }));
  }

  token(size: number): string {
    this.draws += 1;
    return flat(customAlphabet(TOKEN_ALPHABET, size)());
  }

  position(): number {
    return this.draws;
  }

  setPosition(position: number): void {
    this.draws = position;
  }

  rsaKey(_purpose: string): KeyObject {
    return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }
}

const keyCache = new Map<string, KeyObject>();

/** Counter-mode bytes: draw n is sha256(seed:n). Restoring a position is O(1). */
export class SeededIds implements IdGenerator {
  readonly seeded = true;
  private counter = 0;

  // Stryker disable next-line BlockStatement: the counter is already 0 from its field initialiser, so reset() in the constructor changes nothing.
  constructor(private readonly seed: string) {
    this.reset();
  }

  reset(): void {
    this.counter = 0;
  }

  private draw(): Buffer {
    const bytes = createHash('sha256').update(`${this.seed}:${this.counter}`).digest();
    this.counter += 1;
    return bytes;
  }

  uuid(): string {
    return flat(uuidv4({ random: this.draw().subarray(0, 16) }));
  }

  token(size: number): string {
    const n = this.counter;
    this.counter += 1;
    // One draw per token however many bytes nanoid asks for: block 0 is sha256(seed:n), block
    // k > 0 is sha256(seed:n:k), and each request continues the stream. nanoid rejects bytes
    // and asks again; handing it the same bytes again looped forever for some seeds (token(1)
    // under seed "seed-326").
    let block = 0;
    let pool = Buffer.alloc(0);
    return flat(
      customRandom(TOKEN_ALPHABET, size, (len) => {
        // Stryker disable next-line EqualityOperator: the pool is one SHA-256 stream read in order, so drawing a block early leaves the same bytes for the next request.
        while (pool.length < len) {
          const input = block === 0 ? `${this.seed}:${n}` : `${this.seed}:${n}:${block}`;
          pool = Buffer.concat([pool, createHash('sha256').update(input).digest()]);
          block += 1;
        }
        const out = new Uint8Array(pool.subarray(0, len));
        pool = pool.subarray(len);
        return out;
      })(),
    );
  }

  position(): number {
    return this.counter;
  }

  setPosition(position: number): void {
    this.counter = position;
  }

  rsaKey(purpose: string): KeyObject {
    // Derived from the seed alone (not the counter), so keys do not shift the id sequence,
    // and memoized: deriving a key costs a few hundred milliseconds.
    const cacheKey = `${this.seed}\u0000${purpose}`;
    const cached = keyCache.get(cacheKey);
    if (cached) return cached;
    let n = 0;
    let pool = Buffer.alloc(0);
    const nextBytes = (len: number): Uint8Array => {
      // Stryker disable next-line EqualityOperator: the pool is one SHA-256 stream read in order, so drawing a block early leaves the same bytes for the next request.
      while (pool.length < len) {
        pool = Buffer.concat([pool, createHash('sha256').update(`${this.seed}:rsa:${purpose}:${n++}`).digest()]);
      }
      const out = pool.subarray(0, len);
      pool = pool.subarray(len);
      return out;
    };
    const key = deterministicRsaKey(nextBytes);
    keyCache.set(cacheKey, key);
    return key;
  }
}

/**
 * A name-based (version 5) UUID: the same namespace and name always give the same id, whatever
 * the seed. For things that have a natural identity but no registration to draw an id at.
 */
export function nameBasedUuid(namespace: string, name: string): string {
  return flat(uuidv5(name, namespace));
}

export function createIdGenerator(seed: string | undefined): IdGenerator {
  return seed === undefined ? new RandomIds() : new SeededIds(seed);
}

/** The draws of unseededFraction(): 2^47 steps, the most node:crypto's randomInt takes. */
const FRACTION_STEPS = 2 ** 47;

/**
 * A number in [0, 1) from the machine's random source, never from a seed: for choices that must
 * differ between processes started with the same seed, such as the host ports a container is
 * published on (two test workers with one seed would otherwise draw the same ones, and the engine
 * refuses the second container).
 */
export function unseededFraction(): number {
  return randomInt(FRACTION_STEPS) / FRACTION_STEPS;
}

/**
 * A reproducible stream of numbers in [0, 1) drawn from `seed` (sha256 of the seed, then
 * xorshift128+): the same seed gives the same stream, so a network's packet losses on the media
 * plane repeat from one run to the next.
 */
export function pseudoRandom(seed: string): () => number {
  const bytes = createHash('sha256').update(seed).digest();
  let s0 = bytes.readBigUInt64LE(0) | 1n;
  let s1 = bytes.readBigUInt64LE(8) | 2n;
  const MASK = (1n << 64n) - 1n;
  return () => {
    let x = s0;
    const y = s1;
    s0 = y;
    x = (x ^ (x << 23n)) & MASK;
    s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
    return Number(((s1 + y) & MASK) >> 11n) / 2 ** 53;
  };
}
