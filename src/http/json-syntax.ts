// Where a body stops being JSON, so that a 400 says what to fix. V8's SyntaxError gives the
// position for most mistakes, but not for an unexpected token (`{"a":tru}`), whose message quotes
// the body instead — and a body may carry secrets, which never go back into an answer. A small
// scanner finds the first offending character of any body the parser refused, with a reason in
// words that quote nothing of the body. It only runs on a body that already failed to parse.

export interface JsonSyntaxError {
  /** Offset (UTF-16 code units, as the body was decoded) of the first character that is not JSON. */
  offset: number;
  line: number;
  column: number;
  reason: string;
}

const ESCAPES = '"\\/bfnrt';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
// Stryker disable next-line Regex: isHex is only given one character, so either anchor alone matches exactly what both do.
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

function at(text: string, offset: number, reason: string): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset, line, column: offset - lineStart + 1, reason };
}

/**
 * The first syntax error of `text` read as a JSON object or array (what a request body must be),
 * or undefined when it is one. Iterative: a deep body cannot overflow the stack.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const n = text.length;
  const open: Array<'{' | '['> = [];
  let i = 0;
  const skipSpace = () => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: text[n] is undefined and matches no whitespace, so the loop stops at the end of the text anyway.
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (reason: string) => at(text, i, i >= n ? 'the body ends too early' : reason);
  /** Reads a number at text[i]; a failure as text (at the character that breaks it), undefined when it is well formed. */
  const readNumber = (): string | undefined => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (isDigit(text[i])) while (isDigit(text[i])) i++;
    else return 'expected a value (object, array, string, number, true, false or null)';
    if (text[i] === '.') {
      i++;
      if (!isDigit(text[i])) return 'a number needs digits after its decimal point';
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!isDigit(text[i])) return 'a number needs digits in its exponent';
      while (isDigit(text[i])) i++;
    }
    return undefined;
  };
  /** Reads a string at text[i] === '"'; a failure as text, undefined when it is well formed. */
  const readString = (): string | undefined => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return 'a control character inside a string must be escaped';
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          i += 2;
          for (const end = i + 4; i < end; i++) if (!isHex(text[i])) return 'a \\u escape needs four hex digits';
          continue;
        }
        if (e === undefined || !ESCAPES.includes(e)) return (i++, 'unknown escape in a string');
        i += 2;
        continue;
      }
      i++;
    }
    // Stryker disable next-line StringLiteral: this text is never shown: it is only given at the end of the body, where fail() says the body ends too early.
    return 'a string is not closed';
  };

  skipSpace();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: at the end of the text both ways fail with "the body ends too early" at the same offset.
  if (i < n && text[i] !== '{' && text[i] !== '[') return fail('a body must be a JSON object or array');
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skipSpace();
    if (state === 'key') {
      if (text[i] !== '"') return fail('expected a property name in double quotes');
      const bad = readString();
      if (bad) return fail(bad);
      skipSpace();
      if (text[i] !== ':') return fail("expected ':' after a property name");
      i++;
      state = 'value';
      continue;
    }
    if (state === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skipSpace();
        if (text[i] === (c === '{' ? '}' : ']')) {
          i++;
          state = 'after';
        } else {
          open.push(c);
          state = c === '{' ? 'key' : 'value';
        }
        continue;
      }
      if (c === '"') {
        const bad = readString();
        if (bad) return fail(bad);
      } else if (c === 't' || c === 'f' || c === 'n') {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
        const start = i;
        for (; i < start + word.length; i++) if (text[i] !== word[i - start]) return fail(`expected ${word}`);
      } else {
        const bad = readNumber();
        if (bad) return fail(bad);
      }
      state = 'after';
      continue;
    }
    const top = open.at(-1);
    if (top === undefined) return i < n ? fail('unexpected text after the end of the JSON value') : undefined;
    const close = top === '{' ? '}' : ']';
    if (text[i] === ',') {
      i++;
      state = top === '{' ? 'key' : 'value';
    } else if (text[i] === close) {
      i++;
      open.pop();
    } else {
      return fail(`expected ',' or '${close}'`);
    }
  }
}
