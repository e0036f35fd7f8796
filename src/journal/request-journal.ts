// The request journal: a bounded ring of what clients sent and what they got (WireMock's
// request journal). Never an Authorization value or a secret: bodies and queries are redacted
// when the journal is read, not on every request.

import { toIso } from '../core/clock.js';

export interface JournalEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  duration_ms: number;
  org_id: string | null;
  /** RealtimeKit requests: the account and app named in the path; null otherwise. */
  account_id: string | null;
  app_id: string | null;
  body: unknown;
  deliveries: string[];
  /**
   * Set on the emulator's own uploads of a recording to an app's storage (method PUT, path where
   * the file went, status the storage's HTTP answer or 0): what was sent and how it ended.
   */
  upload?: JournalUpload;
}

export interface JournalUpload {
  recording_id: string;
  storage_type: string;
  file: string;
  bytes: number;
  outcome: 'uploaded' | 'failed';
  /** Why it failed (never a credential); null once uploaded. */
  error: string | null;
}

const SECRET_KEYS = /^(access_key|secret_key|secret|password|private_key|api_key|apikey|token|authorization|signature|stream_key)$/i;
/** Bodies larger than this (as JSON) are stored as a marker, so the ring stays small. */
export const JOURNAL_BODY_MAX_BYTES = 16 * 1024;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
    return { ...out };
  }
  return value;
}

/**
 * What the journal keeps of a body: the parsed body itself, or a marker when it is large (its
 * size as sent). Redaction happens when the journal is read, not on every request.
 */
export function journalBody(body: unknown, bytes: number): unknown {
  if (body === undefined) return null;
  return bytes > JOURNAL_BODY_MAX_BYTES ? { _truncated: true, bytes } : body;
}

/** A kept body as the journal shows it: redacted, and a marker when large (a chunked body has no length up front). */
function readableBody(body: unknown): unknown {
  const redacted = redact(body);
  const bytes = Buffer.byteLength(JSON.stringify(redacted) ?? '');
  return bytes > JOURNAL_BODY_MAX_BYTES ? { _truncated: true, bytes } : redacted;
}

/** An entry as kept: its time as the clock's number, written out only when the journal is read. */
type RecordedRequest = Omit<JournalEntry, 'at'> & { at: number };

export class RequestJournal {
  private ring: RecordedRequest[] = [];
  private next = 0;
  private size = 0;
  private requests = 0;

  constructor(private readonly capacity: number) {
    this.reset();
  }

  reset(): void {
    this.ring = [];
    this.next = 0;
    this.size = 0;
    this.requests = 0;
  }

  /** Request ids are a counter, not drawn from the id generator: seeded resource ids stay put. */
  nextRequestId(): string {
    this.requests += 1;
    // Zero-padded to six digits (req_000042); cheaper than padStart on every request.
    return this.requests < 1_000_000 ? `req_${String(1_000_000 + this.requests).slice(1)}` : `req_${this.requests}`;
  }

  clear(): void {
    this.ring = [];
    this.next = 0;
    this.size = 0;
  }

  get enabled(): boolean {
    return this.capacity > 0;
  }

  add(entry: RecordedRequest): void {
    if (this.capacity === 0) return;
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  /** One upload to an app's storage, as an entry of its own (the emulator's request, not a client's). */
  addUpload(u: { at: number; orgId: string; location: string; status: number; durationMs: number; upload: JournalUpload }): void {
    this.add({
      id: this.nextRequestId(),
      at: u.at,
      method: 'PUT',
      path: u.location,
      query: {},
      status: u.status,
      duration_ms: u.durationMs,
      org_id: u.orgId,
      account_id: null,
      app_id: null,
      body: null,
      deliveries: [],
      upload: u.upload,
    });
  }

  /** Newest first, redacted. */
  list(filter: { method?: string; pathPrefix?: string; status?: number } = {}, limit = this.capacity): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let k = 0; k < this.size && out.length < limit; k++) {
      const e = this.ring[(this.next - 1 - k + this.capacity) % this.capacity]!;
      if (filter.method && e.method !== filter.method) continue;
      if (filter.pathPrefix && !e.path.startsWith(filter.pathPrefix)) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      out.push({ ...e, at: toIso(e.at), query: redact(e.query) as Record<string, unknown>, body: readableBody(e.body) });
    }
    return out;
  }

  get length(): number {
    return this.size;
  }
}
