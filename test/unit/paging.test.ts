import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/domain/paging.js';

const ids = ['a', 'b', 'c', 'd', 'e'];
const store = new Map(ids.map((id, i) => [id, { id, n: i + 1 }]));
const get = (id: string) => store.get(id);
const idsOf = (items: Array<{ id: string }>) => items.map((x) => x.id);

describe('paginate without a filter', () => {
  it.each([
    // page, perPage, newestFirst, items, start, end
    [1, 2, false, ['a', 'b'], 1, 2],
    [2, 2, false, ['c', 'd'], 3, 4],
    [3, 2, false, ['e'], 5, 5],
    [4, 2, false, [], 0, 0],
    [1, 2, true, ['e', 'd'], 1, 2],
    [3, 2, true, ['a'], 5, 5],
    [1, 5, true, ['e', 'd', 'c', 'b', 'a'], 1, 5],
    [1, 100, false, ['a', 'b', 'c', 'd', 'e'], 1, 5],
    [2, 5, false, [], 0, 0],
    [1_000_000, 100, true, [], 0, 0],
  ])('page %i of %i (newest first: %s) → %j, offsets %i..%i', (page, perPage, newestFirst, items, start, end) => {
    const p = paginate(ids, get, { page, perPage }, { newestFirst });
    expect(p).toEqual({ items: items.map((id) => store.get(id)), total: 5, startOffset: start, endOffset: end });
  });

  it('an empty list is an empty page with offsets 0/0', () => {
    expect(paginate([], get, { page: 1, perPage: 25 }, { newestFirst: true })).toEqual({ items: [], total: 0, startOffset: 0, endOffset: 0 });
  });

  it('does not change the order array', () => {
    const order = [...ids];
    paginate(order, get, { page: 1, perPage: 5 }, { newestFirst: true });
    expect(order).toEqual(ids);
  });
});

describe('paginate with a filter', () => {
  const odd = (x: { n: number }) => x.n % 2 === 1; // a, c, e

  it.each([
    [1, 2, false, ['a', 'c'], 1, 2],
    [2, 2, false, ['e'], 3, 3],
    [3, 2, false, [], 0, 0],
    [1, 2, true, ['e', 'c'], 1, 2],
    [2, 2, true, ['a'], 3, 3],
    [2, 1, true, ['c'], 2, 2],
  ])('page %i of %i (newest first: %s) → %j, offsets %i..%i, total counts matches only', (page, perPage, newestFirst, items, start, end) => {
    const p = paginate(ids, get, { page, perPage }, { newestFirst, filter: odd });
    expect(idsOf(p.items)).toEqual(items);
    expect(p).toMatchObject({ total: 3, startOffset: start, endOffset: end });
  });

  it('a filter that matches nothing: total 0, offsets 0/0', () => {
    expect(paginate(ids, get, { page: 1, perPage: 10 }, { newestFirst: false, filter: () => false })).toEqual({
      items: [],
      total: 0,
      startOffset: 0,
      endOffset: 0,
    });
  });

  it('skips ids whose item is gone', () => {
    const p = paginate(['a', 'gone', 'c'], get, { page: 1, perPage: 10 }, { newestFirst: false, filter: () => true });
    expect(idsOf(p.items)).toEqual(['a', 'c']);
    expect(p).toMatchObject({ total: 2, startOffset: 1, endOffset: 2 });
  });
});
