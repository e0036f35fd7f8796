// Small helpers for the views: times on the emulator clock, copy to the clipboard.
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso
    .replace('T', ' ')
    .replace(/\.000Z$|Z$/, ' UTC')
    .replace(/(\.\d{3}) UTC$/, '$1 UTC');
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** Seconds between two ISO times, as the emulator clock counts them. */
export function seconds(fromIso: string, toIso: string): number {
  return (Date.parse(toIso) - Date.parse(fromIso)) / 1000;
}

export function duration(s: number): string {
  if (s < 60) return `${Math.round(s * 10) / 10} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

export async function copy(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
