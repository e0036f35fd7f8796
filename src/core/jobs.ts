// Kinds of scheduled job. The module that owns a kind of job declares it once, with
// `defineJob`: its name, the schema of its payload, how a job of that kind is named (its key)
// and which organization it belongs to. Everything else goes through the declaration, so a
// key is built in exactly one place, handlers get a typed payload, an organization's reset
// finds its jobs without guessing at payload fields, and an imported job is checked against
// the same schema and key the running code uses.
import { z } from 'zod';

/** What a payload may hold: it travels in state exports as flat JSON. */
export type JobValue = string | number | boolean | null;
export type JobPayload = Record<string, JobValue>;

/** A payload field naming a resource or an organization. */
export const jobIdField = z.string().min(1).max(100);

/**
 * P: the payload. K: the fields the key is made of (a part of P), which is all `cancel`, `has`
 * and `get` need.
 */
export interface JobKind<P extends K & JobPayload, K extends object = P> {
  /** The kind as stored with the job (and in state exports). */
  readonly kind: string;
  readonly payload: z.ZodType<P>;
  /** The job's name. Scheduling a job under a key that is already taken replaces that job. */
  readonly key: (parts: K) => string;
  /** The organization whose reset drops the job; null for a job that belongs to none. */
  readonly orgId: (payload: P) => string | null;
}

export function defineJob<P extends K & JobPayload, K extends object = P>(declaration: JobKind<P, K>): JobKind<P, K> {
  return Object.freeze({ ...declaration });
}

/** A declaration with its types erased, as the scheduler keeps it next to other kinds. */
export interface AnyJobKind {
  readonly kind: string;
  readonly payload: z.ZodType<unknown>;
  readonly key: (parts: never) => string;
  readonly orgId: (payload: never) => string | null;
}
