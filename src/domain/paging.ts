// Paging over the store's append-only order arrays. Without a filter a page costs O(page);
// with one it walks the order once (there is no index to narrow it).

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /** 1-based, inclusive; 0 and 0 for an empty page (emulator decision, docs/limits-and-decisions.md). */
  startOffset: number;
  endOffset: number;
}

export function paginate<T>(
  ids: readonly string[],
  get: (id: string) => T | undefined,
  req: PageRequest,
  opts: { newestFirst: boolean; filter?: (item: T) => boolean },
): Page<T> {
  const skip = (req.page - 1) * req.perPage;
  const items: T[] = [];
  let total = 0;
  if (!opts.filter) {
    total = ids.length;
    for (let k = skip; k < Math.min(total, skip + req.perPage); k++) {
      const id = ids[opts.newestFirst ? total - 1 - k : k]!;
      const item = get(id);
      if (item !== undefined) items.push(item);
    }
  } else {
    // Stryker disable next-line EqualityOperator: the one step past the end reads an undefined id, which names no item, so the walk skips it.
    for (let k = 0; k < ids.length; k++) {
      const item = get(ids[opts.newestFirst ? ids.length - 1 - k : k]!);
      if (item === undefined || !opts.filter(item)) continue;
      if (total >= skip && items.length < req.perPage) items.push(item);
      total += 1;
    }
  }
  return items.length === 0 ? { items, total, startOffset: 0, endOffset: 0 } : { items, total, startOffset: skip + 1, endOffset: skip + items.length };
}

/** A page of a list already in memory and in order (filtered and sorted by the caller). */
export function pageList<T>(all: readonly T[], req: PageRequest): Page<T> {
  const skip = (req.page - 1) * req.perPage;
  const items = all.slice(skip, skip + req.perPage);
  return items.length === 0
    ? { items, total: all.length, startOffset: 0, endOffset: 0 }
    : { items, total: all.length, startOffset: skip + 1, endOffset: skip + items.length };
}
