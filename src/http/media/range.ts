// HTTP Range (RFC 9110 §14) for the media routes: browsers seek in a video with
// `Range: bytes=a-b`. One range is honoured; several ranges or a malformed header are ignored
// (the whole file is sent, as the RFC allows); a range that starts past the end is 416.

export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '') {
    // Suffix range: the last n bytes.
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (b === '') return { kind: 'partial', start, end: size - 1 };
  const last = Number(b);
  if (last < start) return { kind: 'full' };
  return { kind: 'partial', start, end: Math.min(last, size - 1) };
}
