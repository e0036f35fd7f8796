// Values built when first asked for: a lazy value and a route's schema given as a function are each
// built once, on the first call, and the same value is answered on every later one.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazy } from '../../src/core/lazy.js';
import { schemaOf } from '../../src/http/route.js';

describe('built when first asked for', () => {
  it('lazy(): nothing is built until the first call, once, and every call answers that value', () => {
    let builds = 0;
    const value = lazy(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(first).toEqual({ n: 1 });
    expect(builds).toBe(1);
  });

  it('schemaOf(): a schema is itself; a function is built on its first use, once, the same schema after', () => {
    const plain = z.object({ a: z.string() });
    expect(schemaOf(plain)).toBe(plain);
    let builds = 0;
    const deferred = () => {
      builds += 1;
      return z.object({ b: z.number() });
    };
    expect(builds).toBe(0);
    const built = schemaOf(deferred);
    expect(schemaOf(deferred)).toBe(built);
    expect(builds).toBe(1);
    expect(built.parse({ b: 1 })).toEqual({ b: 1 });
  });
});
