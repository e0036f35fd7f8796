// The usual request body, read without body-parser: JSON in UTF-8, not compressed, of a declared
// length within the limit — what every client of the APIs sends. body-parser would read it exactly
// so (its json parser over raw-body and iconv-lite: a StringDecoder fed chunk by chunk, a leading
// byte order mark dropped, strict JSON, an empty text read as {}); what it also does for every
// request (the type and charset parsed again, a decoder looked up, listeners for encodings that do
// not apply) was a tenth of a small POST's CPU. Any other body (another charset, a compressed
// one, no length, a length over the limit) still goes to body-parser, with its answers.
import type { Request } from 'express';
import { StringDecoder } from 'node:string_decoder';
import { errors } from '../core/errors.js';
import { malformedJson } from './errors.js';

/** The content types read here, lower-cased: JSON without a charset (UTF-8, RFC 8259) or with UTF-8 named. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** The first character that is not JSON whitespace, or undefined (body-parser's strict check). */
function firstNonWhitespace(text: string): string | undefined {
  // Stryker disable next-line Regex: the expression matches at the start of any text, and an empty match becomes undefined through || anyway.
  return /^[ \t\n\r]*([^ \t\n\r]|$)/.exec(text)?.[1] || undefined;
}

/** JSON.parse as body-parser's strict parser takes it: an object or an array, an empty body as {}. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  // Stryker disable next-line ConditionalExpression,StringLiteral: firstNonWhitespace looks at the first character again and finds the same one; the check is a shortcut.
  if (text[0] !== '{' && text[0] !== '[') {
    const first = firstNonWhitespace(text);
    if (first !== '{' && first !== '[') throw malformedJson(text);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformedJson(text);
  }
}

/**
 * Starts reading `req`'s body when it is one of the usual ones and sets `req.body` to its JSON,
 * as body-parser does; undefined when body-parser must read it. The promise rejects with the
 * ApiError body-parser's error would have become (400 for malformed JSON or a body cut off).
 */
export function readPlainJson(req: Request, limit: number): Promise<void> | undefined {
  const headers = req.headers;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON.has(type.toLowerCase())) return undefined;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
  const declared = headers['content-length'];
  if (declared === undefined) return undefined;
  const length = Number.parseInt(declared, 10);
  if (!(length <= limit)) return undefined;
  // What body-parser does not read as usual (a body already read, a connection that no longer
  // reads, a stream with an encoding set) stays its own to answer.
  // (Node marks an upgrade request it hands to the app as a plain one with `upgrade`, which its types omit.)
  const upgrade = (req as { upgrade?: unknown }).upgrade === true;
  if (upgrade || !req.socket.readable || !req.readable || req.readableEncoding !== null) return undefined;
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    let received = 0;
    const cleanup = () => {
      req.removeListener('aborted', onAborted);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
    };
    const fail = () => {
      cleanup();
      reject(errors.bodyUnreadable());
    };
    const onAborted = fail;
    const onError = fail;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      text += decoder.write(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (received !== length) return reject(errors.bodyUnreadable());
      text += decoder.end();
      try {
        req.body = parseStrict(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch (err) {
        return reject(err);
      }
      resolve();
    };
    req.on('aborted', onAborted);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
