// The answer to a request Node's HTTP parser refuses before the app sees it: headers too large
// (431), a request line or header that is not HTTP/1.1 (400), a request that never finished
// arriving (408). Node's own answer is a status line with an empty body and no CORS headers, so
// a client (or a browser page) learns nothing; this one is a JSON error like every other.
//
// Emulator decision: the answer is in the v2 envelope. Which API a request belongs to is read
// from its path, and a request the parser refused has none to read (its request line may be the
// part that is broken); v2 is what the emulator is mostly called for, and a path under no mount
// is answered in the v2 envelope too (route-table.ts).
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { type ApiError, errors } from '../core/errors.js';
import { CORS_HEADERS } from './cors.js';
import { errorBody } from './errors.js';

function errorOf(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return errors.headersTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout();
    // Chunk extensions past Node's limit: Node's own answer is a 413, kept.
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errors.chunkExtensionsTooLarge();
    default:
      return errors.malformedRequest();
  }
}

/** The complete HTTP/1.1 response for a refused request: status line, headers and JSON body. */
export function clientErrorResponse(code: string | undefined): string {
  const err = errorOf(code);
  const body = JSON.stringify(errorBody('v2', err));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...CORS_HEADERS,
  };
  // Stryker disable next-line StringLiteral: every status that reaches here (400, 408, 413, 431) has a reason phrase, so the fallback is never used.
  const lines = [`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * For the server's 'clientError' event, in place of Node's default (which it replaces entirely).
 * As Node does: nothing is written to a connection that is gone, or whose response has begun —
 * that would corrupt what the client reads — and the connection is closed either way.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(err.code), () => socket.destroy());
}
