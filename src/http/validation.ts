// Zod issues rendered in the production message style (Joi's): `"meeting_id" is required`,
// `"id" must be a valid GUID`. One issue is reported, the first, as production does.
import type { z } from 'zod';
import { errors, type ApiError } from '../core/errors.js';

type Issue = z.core.$ZodIssue;

/** Joi's labels: `"storage_config.type"`, and array items as `"status[0]"`. */
function label(path: PropertyKey[], root?: string): string {
  const text = path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');
  return `"${text || (root ?? 'value')}"`;
}

/**
 * The path does not lead to a value of the raw input: it goes through a non-object, or past the end
 * of an array. Either way the issue is about a list a transform made (a comma-separated query value
 * split into items), whose items are not the raw input's; and JSON arrays have no missing items.
 */
const UNREACHABLE = Symbol('unreachable');

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return UNREACHABLE;
    if (Array.isArray(v) && !(typeof key === 'number' && key < v.length)) return UNREACHABLE;
    v = Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'of type object',
  array: 'an array',
  record: 'of type object',
  null: 'null',
};

export function issueMessage(issue: Issue, input: unknown, root?: string): string {
  const name = label(issue.path, root);
  // A missing field reads "is required" whatever its schema (an enum or a union too), as in Joi.
  const missing = valueAt(input, issue.path) === undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return `${name} is required`;
      return `${name} must be ${TYPE_WORDS[issue.expected] ?? `of type ${issue.expected}`}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? `${name} is not allowed to be empty` : `${name} length must be at least ${min} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${name} must contain at least ${min} items`;
      return `${name} must be greater than or equal to ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `${name} length must be less than or equal to ${max} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${name} must contain less than or equal to ${max} items`;
      if (issue.origin === 'object' || issue.origin === 'record') return `${name} must have less than or equal to ${max} keys`;
      return `${name} must be less than or equal to ${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') return `${name} must be a valid GUID`;
      if (issue.format === 'url') return `${name} must be a valid uri`;
      if (issue.format === 'datetime') return `${name} must be in ISO 8601 date format`;
      return `${name} ${issue.message.startsWith('must') ? issue.message : 'fails to match the required pattern'}`;
    case 'invalid_value':
      if (missing) return `${name} is required`;
      return `${name} must be one of [${issue.values.map(String).join(', ')}]`;
    case 'unrecognized_keys':
      return `"${issue.keys[0]}" is not allowed`;
    case 'not_multiple_of':
      return `${name} must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      if (missing) return `${name} is required`;
      return `${name} does not match any of the allowed types`;
    default:
      return `${name} ${issue.message}`;
  }
}

export function validationError(err: z.ZodError, input: unknown, root?: string): ApiError {
  return errors.validation(issueMessage(err.issues[0]!, input, root));
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, root?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, input, root);
  return result.data;
}
