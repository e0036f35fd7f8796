import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { issueMessage, parseWith } from '../../src/http/validation.js';

/** The message parseWith throws for `input` against `schema` (production style, first issue only). */
function messageOf(schema: z.ZodType, input: unknown, root?: string): string {
  try {
    parseWith(schema, input, root);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(400);
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.v2Message).toBe(`BAD_REQUEST: ${e.message}`);
    return e.message;
  }
  throw new Error('expected a validation error');
}

const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape);

describe('validation messages (Joi style)', () => {
  it.each<[string, z.ZodType, unknown, string]>([
    ['missing string', obj({ meeting_id: z.string() }), {}, '"meeting_id" is required'],
    ['missing uuid', obj({ meeting_id: z.uuid() }), {}, '"meeting_id" is required'],
    ['missing enum', obj({ action: z.enum(['stop', 'pause']) }), {}, '"action" is required'],
    ['missing literal', obj({ kind: z.literal('x') }), {}, '"kind" is required'],
    ['missing union', obj({ v: z.union([z.string(), z.number()]) }), {}, '"v" is required'],
    ['string expected', obj({ title: z.string() }), { title: 5 }, '"title" must be a string'],
    ['number expected', obj({ n: z.number() }), { n: 'x' }, '"n" must be a number'],
    ['integer expected', obj({ n: z.number().int() }), { n: 1.5 }, '"n" must be an integer'],
    ['boolean expected', obj({ b: z.boolean() }), { b: 'yes' }, '"b" must be a boolean'],
    ['object expected', obj({ o: z.object({}) }), { o: 'x' }, '"o" must be of type object'],
    ['array expected', obj({ a: z.array(z.string()) }), { a: 'x' }, '"a" must be an array'],
    ['a type without a word of its own', obj({ n: z.bigint() }), { n: 'x' }, '"n" must be of type bigint'],
    ['null is not a string', obj({ s: z.string() }), { s: null }, '"s" must be a string'],
    ['empty string', obj({ s: z.string().min(1) }), { s: '' }, '"s" is not allowed to be empty'],
    ['short string', obj({ s: z.string().min(3) }), { s: 'ab' }, '"s" length must be at least 3 characters long'],
    ['long string', obj({ s: z.string().max(3) }), { s: 'abcd' }, '"s" length must be less than or equal to 3 characters long'],
    ['small number', obj({ n: z.number().min(60) }), { n: 59 }, '"n" must be greater than or equal to 60'],
    ['big number', obj({ n: z.number().max(100) }), { n: 101 }, '"n" must be less than or equal to 100'],
    ['short array', obj({ a: z.array(z.string()).min(1) }), { a: [] }, '"a" must contain at least 1 items'],
    ['long array', obj({ a: z.array(z.string()).max(1) }), { a: ['x', 'y'] }, '"a" must contain less than or equal to 1 items'],
    // No route takes a set (JSON has none), but the renderer reads a set's size as a list's length.
    ['a set with too few items', obj({ tags: z.set(z.string()).min(1) }), { tags: new Set() }, '"tags" must contain at least 1 items'],
    ['a set with too many items', obj({ tags: z.set(z.string()).max(1) }), { tags: new Set(['x', 'y']) }, '"tags" must contain less than or equal to 1 items'],
    [
      'an object with more keys than its check allows',
      obj({
        labels: z
          .object({})
          .catchall(z.string())
          .superRefine((v, ctx) => {
            if (Object.keys(v).length > 2) ctx.addIssue({ code: 'too_big', origin: 'object', maximum: 2, inclusive: true, input: v, message: 'too many keys' });
          }),
      }),
      { labels: { a: 'x', b: 'y', c: 'z' } },
      '"labels" must have less than or equal to 2 keys',
    ],
    ['uuid', obj({ id: z.uuid() }), { id: 'abc' }, '"id" must be a valid GUID'],
    ['guid (any version)', obj({ id: z.guid() }), { id: 'abc' }, '"id" must be a valid GUID'],
    ['url', obj({ u: z.url() }), { u: 'not a url' }, '"u" must be a valid uri'],
    ['iso datetime', obj({ t: z.iso.datetime() }), { t: 'yesterday' }, '"t" must be in ISO 8601 date format'],
    ['regex with a must-message', obj({ p: z.string().regex(/^a+$/, 'must be only a') }), { p: 'b' }, '"p" must be only a'],
    ['regex without a message', obj({ p: z.string().regex(/^a+$/) }), { p: 'b' }, '"p" fails to match the required pattern'],
    ['enum', obj({ r: z.enum(['x', 'y']) }), { r: 'z' }, '"r" must be one of [x, y]'],
    ['unknown key in a strict object', z.strictObject({ a: z.string() }), { a: 'x', extra: 1 }, '"extra" is not allowed'],
    ['multiple of', obj({ n: z.number().multipleOf(5) }), { n: 7 }, '"n" must be a multiple of 5'],
    ['union', obj({ v: z.union([z.string(), z.number()]) }), { v: true }, '"v" does not match any of the allowed types'],
    [
      'nested path',
      obj({ storage_config: z.object({ type: z.enum(['aws']) }) }),
      { storage_config: { type: 'gcp' } },
      '"storage_config.type" must be one of [aws]',
    ],
    ['nested missing', obj({ storage_config: z.object({ type: z.string() }) }), { storage_config: {} }, '"storage_config.type" is required'],
    ['array item', obj({ events: z.array(z.string()) }), { events: ['a', 3] }, '"events[1]" must be a string'],
    ['array item field', obj({ items: z.array(z.object({ id: z.uuid() })) }), { items: [{ id: 'x' }] }, '"items[0].id" must be a valid GUID'],
    ['a whole body of the wrong type', obj({ a: z.string() }), [], '"value" must be of type object'],
    ['custom issue', obj({ a: z.string().refine(() => false, 'is wrong') }), { a: 'x' }, '"a" is wrong'],
  ])('%s', (_name, schema, input, expected) => {
    expect(messageOf(schema, input)).toBe(expected);
  });

  it('reports the first issue only', () => {
    expect(messageOf(obj({ a: z.string(), b: z.string() }), { a: 1, b: 2 })).toBe('"a" must be a string');
  });

  it('names the root when given one', () => {
    expect(messageOf(z.string(), 5, 'body')).toBe('"body" must be a string');
  });

  it('a value that a transform turned into a list is not "required" when one item is bad', () => {
    const list = z
      .string()
      .transform((s) => s.split(','))
      .pipe(z.array(z.enum(['A', 'B'])));
    expect(messageOf(obj({ status: list }), { status: 'A,C' })).toBe('"status[1]" must be one of [A, B]');
  });

  // The raw value the list came from is not a list: its own characters (or nothing, for null)
  // are not the items, so an item is never read as missing from it, and null is not a crash.
  const listOfText = z
    .string()
    .nullable()
    .transform((s) => (s ?? '').split(','))
    .pipe(z.array(z.enum(['A', 'B'])));

  it('an empty string that a transform turned into a list of one empty item: the item is not "required"', () => {
    expect(messageOf(obj({ status: listOfText }), { status: '' })).toBe('"status[0]" must be one of [A, B]');
  });

  it('a field missing from an item of a list is "required", named by its place in the list', () => {
    const people = obj({ people: z.array(obj({ name: z.string() })) });
    expect(messageOf(people, { people: [{ name: 'Ada' }, {}] })).toBe('"people[1].name" is required');
  });

  it('an item past the end of the raw list, which a transform made longer, is not "required"', () => {
    const split = z
      .array(z.string())
      .transform((values) => values.flatMap((s) => s.split(',')))
      .pipe(z.array(z.enum(['A', 'B'])));
    expect(messageOf(obj({ status: split }), { status: ['A,B', 'C'] })).toBe('"status[2]" must be one of [A, B]');
  });

  it('a null that a transform turned into a list: the item is named, not a crash', () => {
    expect(messageOf(obj({ status: listOfText }), { status: null })).toBe('"status[0]" must be one of [A, B]');
  });

  it('a query value that does not coerce names the field', () => {
    expect(messageOf(obj({ per_page: z.coerce.number().int().max(100) }), { per_page: '101' })).toBe('"per_page" must be less than or equal to 100');
    expect(messageOf(obj({ per_page: z.coerce.number().int() }), { per_page: 'ten' })).toBe('"per_page" must be a number');
  });

  it('issueMessage reads an issue directly', () => {
    const r = obj({ x: z.string() }).safeParse({});
    expect(r.success).toBe(false);
    expect(issueMessage(r.error!.issues[0]!, {})).toBe('"x" is required');
  });

  it('parseWith answers the parsed (and defaulted) value on success', () => {
    expect(parseWith(obj({ page_no: z.coerce.number().default(1) }), {})).toEqual({ page_no: 1 });
  });
});
