// The request scope: code inside a handler sees its request; once the handler returns, or throws,
// the scope around it (a request that caused another, or none) is the current one again.
import { describe, expect, it } from 'vitest';
import { RequestScope } from '../../src/core/request-scope.js';

describe('RequestScope', () => {
  it('is the request while its handler runs, and none before or after', () => {
    const scope = new RequestScope();
    const data = { requestId: 'req-1', deliveries: [] };
    expect(scope.current()).toBeUndefined();
    expect(scope.run(data, () => scope.current())).toBe(data);
    expect(scope.current()).toBeUndefined();
  });

  it('restores the outer request after a nested one, also when the nested handler throws', () => {
    const scope = new RequestScope();
    const outer = { requestId: 'outer', deliveries: [] };
    const inner = { requestId: 'inner', deliveries: [] };
    const seen = scope.run(outer, () => {
      const during = scope.run(inner, () => scope.current()?.requestId);
      expect(() =>
        scope.run(inner, () => {
          throw new Error('handler failed');
        }),
      ).toThrow('handler failed');
      return [during, scope.current()?.requestId];
    });
    expect(seen).toEqual(['inner', 'outer']);
    expect(scope.current()).toBeUndefined();
  });
});
