// Where a body stops being JSON: the scanner agrees with JSON.parse on what is JSON, and on the
// position wherever V8 names one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/http/json-syntax.js';

/** JSON text of objects and arrays, then broken by one edit (a character inserted, deleted or replaced). */
const nearlyJson = fc
  .tuple(
    fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })), fc.array(fc.jsonValue({ maxDepth: 3 }))),
    fc.boolean(),
    fc.nat(),
    fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', '-', '.', 'e', 't', '\u0001'),
    fc.nat({ max: 2 }),
  )
  .map(([value, pretty, at, insert, removed]) => {
    const text = JSON.stringify(value, null, pretty ? 2 : undefined);
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(i + removed);
  });

function isBody(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object';
  } catch {
    return false;
  }
}

describe('findJsonSyntaxError', () => {
  it('finds an error exactly when the text is not a JSON object or array', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyJson, fc.string({ maxLength: 12 })), (text) => {
        expect(findJsonSyntaxError(text) === undefined, JSON.stringify(text)).toBe(isBody(text));
      }),
      { seed: 20_260_101, numRuns: 2_000 },
    );
  });

  it('names the position V8 names, when it names one', () => {
    fc.assert(
      fc.property(nearlyJson, (text) => {
        let message = '';
        try {
          JSON.parse(text);
        } catch (err) {
          message = (err as Error).message;
        }
        const v8 = /at position (\d+)/.exec(message);
        // A bare value (`42`, `-[]`) is refused at its first character: a body must be an object or array.
        if (v8 && /^\s*[[{]/.test(text)) expect(findJsonSyntaxError(text)?.offset, `${JSON.stringify(text)}: ${message}`).toBe(Number(v8[1]));
      }),
      { seed: 20_260_101, numRuns: 2_000 },
    );
  });

  it.each([
    ['{"a":1,\n"b":\n]', { offset: 13, line: 3, column: 1, reason: 'expected a value (object, array, string, number, true, false or null)' }],
    ['{"a":"\\u12"}', { offset: 10, line: 1, column: 11, reason: 'a \\u escape needs four hex digits' }],
    ['[1.5e+]', { offset: 6, line: 1, column: 7, reason: 'a number needs digits in its exponent' }],
    ['{"a":"open', { offset: 10, line: 1, column: 11, reason: 'the body ends too early' }],
    ['', { offset: 0, line: 1, column: 1, reason: 'the body ends too early' }],
  ])('%j', (text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
  });

  it.each([
    ['lines are counted from a newline at the very start', '\n{"a":tru}', { offset: 9, line: 2, column: 9, reason: 'expected true' }],
    [
      'a newline that is itself the offending character still belongs to its line',
      '{"a":"x\ny"}',
      { offset: 7, line: 1, column: 8, reason: 'a control character inside a string must be escaped' },
    ],
    ['a property name without its colon is named so', '{"a" 1}', { offset: 5, line: 1, column: 6, reason: "expected ':' after a property name" }],
  ])('%s', (_name, text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
  });

  // What the generated texts above never hold (JSON.stringify writes none of it): tabs and CRLF
  // between tokens, an upper-case exponent, a \u escape followed by more text.
  it.each(['{\t"a":1}', '{\r\n  "a": 1\r\n}', '{"a":1E5}', '[1E+2,1e-2,0E0]', '{"a":"\\u00e9x"}', '["\\uABCDz","\\u0041"]'])('%j is JSON: no error', (text) => {
    expect(isBody(text)).toBe(true);
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it('reads 100 000 unclosed arrays without overflowing the stack', () => {
    expect(findJsonSyntaxError('['.repeat(100_000))).toEqual({ offset: 100_000, line: 1, column: 100_001, reason: 'the body ends too early' });
  });
});
