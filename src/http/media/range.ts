// HTTP Range (RFC 9110 §14) for the media routes: browsers seek in a video with
// `Range: bytes=a-b`. One range is honoured; several ranges or a malformed header are ignored
// (the whole file is sent, as the RFC allows); a range that starts past the end is 416.
//
// Express's req.range (the range-parser package) reads the header. Where range-parser and the
// RFC part ways, the RFC wins, and this file says so:
// - several ranges: range-parser keeps the satisfiable ones of the list; we send the whole file;
// - another unit than bytes: range-parser still parses it; we ignore the header;
// - range-parser answers "unsatisfiable" (-1) for two range-specs that are not: one whose last
//   byte is before its first (`bytes=9-5`) is invalid, so the header is ignored (§14.1.1), and a
//   suffix longer than the file (`bytes=-50000`) means the whole file (§14.1.3).
import type { Request } from 'express';

export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const FULL: RangeResult = { kind: 'full' };
const UNSATISFIABLE: RangeResult = { kind: 'unsatisfiable' };

export function byteRange(req: Request, size: number): RangeResult {
  const header = req.get('range');
  if (header === undefined || header.includes(',')) return FULL;
  if (header.slice(0, header.indexOf('=')).trim().toLowerCase() !== 'bytes') return FULL;
  const ranges = req.range(size);
  if (ranges === undefined || ranges === -2) return FULL;
  if (ranges !== -1) return { kind: 'partial', start: ranges[0]!.start, end: ranges[0]!.end };
  // range-parser checked the shape (`first-last`, each part digits or empty); it only lost which
  // part was empty. A first byte before the end means last < first: invalid, ignored.
  // Stryker disable next-line StringLiteral,ArrayDeclaration: range-parser only lets through headers this regex matches, so the defaults are never used.
  const [, first = '', last = ''] = /=\s*(\d*)\s*-\s*(\d*)/.exec(header) ?? [];
  if (first !== '') return Number(first) < size ? FULL : UNSATISFIABLE;
  // Stryker disable next-line EqualityOperator: range-parser answers a suffix as long as the file itself, so it never gets here.
  return size > 0 && Number(last) > size ? { kind: 'partial', start: 0, end: size - 1 } : UNSATISFIABLE;
}
