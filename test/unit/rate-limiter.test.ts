// The limiter's count per client with very many clients: past 10 000 tracked clients it drops the
// windows that are over, and only those, so a client still inside its minute keeps its count.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/rate-limiter.js';

describe('RateLimiter with more than 10 000 clients', () => {
  it('keeps the count of a client whose minute is not over when a new client arrives', () => {
    const limiter = new RateLimiter(1);
    const t0 = 1_000_000;
    expect(limiter.take('busy', t0)).toBe(0);
    for (let i = 0; i < 10_001; i++) expect(limiter.take(`other-${i}`, t0 + 1)).toBe(0);
    // 30 s on, a new client arrives while more than 10 000 are tracked, all inside their minute.
    expect(limiter.take('newcomer', t0 + 30_000)).toBe(0);
    expect(limiter.take('busy', t0 + 30_000)).toBe(30);
    expect(limiter.take('other-0', t0 + 30_000)).toBe(31);
  });
});
