// A fixtures document without the sections of a state export (an organization's profile and
// resources, the runtime), as hand-written fixtures are, is read by the fixtures schema without
// those optional fields (so that a start need not build their schemas): it must read alike, and a
// document that holds one is still checked against its records' schemas.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES } from '../../src/config.js';
import { FixtureError, fixturesSchema, parseFixtures } from '../../src/store/fixtures.js';

const defaults = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8')) as { organizations: Array<Record<string, unknown>> } & Record<string, unknown>;

/** The first issue of the whole schema, as parseFixtures words it. */
function wholeSchemaSays(data: unknown): string {
  const result = fixturesSchema().safeParse(data);
  if (result.success) return 'valid';
  const issue = result.error.issues[0]!;
  return `f: ${issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '')}: ${issue.message}`;
}

function parsedSays(data: unknown): string {
  try {
    parseFixtures(data, 'f', { small: true });
    return 'valid';
  } catch (err) {
    if (err instanceof FixtureError) return err.message;
    throw err;
  }
}

describe('fixtures without the sections of a state export', () => {
  it('the default fixtures read exactly as the whole schema reads them (no field added, none lost)', () => {
    expect(parseFixtures(defaults(), 'f', { small: true })).toStrictEqual(fixturesSchema().parse(defaults()));
    expect(parseFixtures(defaults(), 'f')).toStrictEqual(fixturesSchema().parse(defaults()));
  });

  it.each<[string, (f: ReturnType<typeof defaults>) => void]>([
    ['an API key too short', (f) => (f.organizations[0]!.api_key = 'short')],
    ['a product of no category', (f) => ((f.organizations[0]!.products as Array<Record<string, unknown>>)[0]!.category_code = '99999999')],
    ['a second organization with the same id', (f) => f.organizations.push({ ...f.organizations[0]! })],
    ['no default presets', (f) => (f.default_presets = [])],
    ['an unknown view type', (f) => ((f.default_presets as Array<Record<string, unknown>>)[0]!.view_type = 'THEATRE')],
  ])('%s: refused with the message of the whole schema', (_what, spoil) => {
    const f = defaults();
    spoil(f);
    const message = parsedSays(f);
    expect(message).not.toBe('valid');
    expect(message).toBe(wholeSchemaSays(f));
  });

  it.each<[string, (f: ReturnType<typeof defaults>) => void, string]>([
    [
      'a meeting record without its fields',
      (f) => (f.organizations[0]!.meetings = [{}]),
      'f: organizations[0].meetings[0].id: Invalid input: expected string, received undefined',
    ],
    [
      'a profile that is not an object',
      (f) => (f.organizations[0]!.profile = 'x'),
      'f: organizations[0].profile: Invalid input: expected object, received string',
    ],
    ['a runtime that is not an object', (f) => (f.runtime = 1), 'f: runtime: Invalid input: expected object, received number'],
  ])('a document holding a section is checked against its schema: %s', (_what, spoil, message) => {
    const f = defaults();
    spoil(f);
    expect(parsedSays(f)).toBe(message);
  });
});
