// Work a start should not pay for: a value built the first time it is asked for, then kept.
// Zod schemas are the main use: building one is far costlier than parsing with it, and a start
// would otherwise build every schema of every route, most of which a run never uses.

/**
 * A function that builds the value on its first call and returns that same value on every call.
 * The value must not depend on when it is built (a constant, such as a schema).
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
