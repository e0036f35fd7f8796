// Every limit the emulator enforces, in one table (documented in the README).
export const LIMITS = {
  bodyBytes: 1024 * 1024,
  bodyText: '1mb',
  perPageDefault: 25,
  perPageMax: 100,
  titleMax: 1024,
  nameMax: 255,
  urlMax: 2048,
  clientIdMax: 255,
  secretMax: 4096,
} as const;
