// Small numeric helpers: medians, ratios and the formatting used in the table and RESULTS.md.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : Number.NaN;
}

/** 12 345 (thin groups, as in the issue). */
export function int(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

export function fixed(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

export function times(n: number): string {
  return Number.isFinite(n) ? `${n.toFixed(n >= 10 ? 1 : 2)}×` : 'n/a';
}

export function mb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : 'n/a';
}

export function bytes(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n >= 10_240 ? `${(n / 1024).toFixed(1)} KB` : `${Math.round(n)} B`;
}

export function ms(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(n >= 10 ? 1 : 2)} ms`;
}

export type Verdict = 'met' | 'MISSED' | '—';

/** A target line: whether `value` meets `goal` in the given direction. */
export function verdict(value: number, goal: number, direction: 'atLeast' | 'atMost'): Verdict {
  if (!Number.isFinite(value)) return '—';
  return (direction === 'atLeast' ? value >= goal : value <= goal) ? 'met' : 'MISSED';
}
