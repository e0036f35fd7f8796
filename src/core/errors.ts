// One error model, so every API renders the same failure the same way. Services throw ApiError; one middleware renders it in the
// shape of the API the request was for (v2 envelope, v1 shape, control shape). Handlers never
// write error bodies themselves.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Symbolic UPPER_SNAKE code: v1 and the control API show it; v2 shows `status`. */
    readonly code: string,
    message: string,
    /** v2 validation messages read `BAD_REQUEST: "x" is required` (production style). */
    readonly v2Prefixed = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get v2Message(): string {
    return this.v2Prefixed ? `${this.code}: ${this.message}` : this.message;
  }
}

export type ResourceKind = 'meeting' | 'participant' | 'recording' | 'livestream' | 'webhook' | 'preset' | 'product' | 'organization' | 'delivery';

/** The catalogue: every error the emulator answers is made here. */
export const errors = {
  validation: (detail: string) => new ApiError(400, 'BAD_REQUEST', detail, true),
  // Stryker disable next-line StringLiteral: the default code is never used: the one caller, the state import, passes INVALID_STATE.
  badRequest: (message: string, code = 'BAD_REQUEST') => new ApiError(400, code, message),
  /** A body cut off, of another length than declared, or that failed to decode. */
  bodyUnreadable: () => new ApiError(400, 'BAD_REQUEST', 'The request body could not be read'),
  /** `where`: the position and what is wrong there (`at position 7 (line 1, column 8): …`); never a quote of the body. */
  malformedJson: (where?: string) =>
    // Stryker disable next-line StringLiteral: the message without a position is never used: every caller passes where the syntax error is.
    new ApiError(400, 'BAD_REQUEST', where ? `Request body is not valid JSON ${where}` : 'Request body is not valid JSON', true),
  // Stryker disable next-line StringLiteral: the default message is never used: every caller is behind an auth mode that already guarantees the kind.
  unauthorized: (message = 'Unauthorized') => new ApiError(401, 'UNAUTHORIZED', message),
  // Stryker disable next-line StringLiteral: the code is never shown: its routes answer in the v2 or RealtimeKit envelope, which shows the HTTP status instead.
  forbidden: (message: string) => new ApiError(403, 'FORBIDDEN', message),
  notFound: (kind: ResourceKind, id: string) => new ApiError(404, 'NOT_FOUND', `No ${kind} found with id ${id}`),
  notFoundMessage: (message: string) => new ApiError(404, 'NOT_FOUND', message),
  /** `nearest`: the template of a route close to the path (a likely typo), shown as a hint. */
  routeNotFound: (method: string, path: string, nearest?: string) =>
    new ApiError(404, 'ROUTE_NOT_FOUND', nearest ? `Cannot ${method} ${path}; did you mean ${nearest}?` : `Cannot ${method} ${path}`),
  /** A path the API serves, with a method it does not serve there; `allowed` also goes in the Allow header. */
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, false, { allow: allowed.join(', ') }),
  conflict: (message: string, code = 'CONFLICT') => new ApiError(409, code, message),
  payloadTooLarge: (limit: string) => new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit}`),
  /** Node's HTTP parser refuses a chunk whose extensions pass 16 KiB (a guard against reading without end). */
  chunkExtensionsTooLarge: () =>
    // Stryker disable next-line StringLiteral: the code is never shown: chunk-extension errors come from client-error.ts, whose envelope shows the HTTP status.
    new ApiError(413, 'PAYLOAD_TOO_LARGE', 'A chunk of the request body carries more than 16 KiB of extensions; send the chunks without extensions'),
  unsupportedMediaType: (type: string) =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type || '(none)'} is not supported; send application/json`),
  unsupportedEncoding: (encoding: string) =>
    // Stryker disable next-line StringLiteral: the encoding is never empty: body-parser names it as (header || "identity"), and the direct reader defers to it.
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding || '(none)'} is not supported; send identity, gzip, deflate or br`),
  /** JSON nested deeper than the limit (it could not even be echoed back: emulator decision). */
  bodyTooDeep: (maxDepth: number) => new ApiError(400, 'BAD_REQUEST', `Request body is nested deeper than ${maxDepth} levels`, true),
  /** A path with broken percent-encoding (`/v2/meetings/%zz`). */
  malformedPath: () => new ApiError(400, 'BAD_REQUEST', 'Request path is not valid percent-encoding', true),
  // Requests Node refuses before any route sees them (http/client-error.ts).
  headersTooLarge: () =>
    new ApiError(
      431,
      // Stryker disable next-line StringLiteral: the code is never shown: these answers come from client-error.ts, whose envelope shows the HTTP status instead.
      'REQUEST_HEADER_FIELDS_TOO_LARGE',
      'The request line and headers are too large (at most 16 KiB in all, by default); send shorter headers or a shorter URL',
    ),
  // Stryker disable next-line StringLiteral: the code is never shown: only client-error.ts raises this, and its envelope shows the HTTP status instead.
  malformedRequest: () => new ApiError(400, 'BAD_REQUEST', 'The request is not valid HTTP/1.1: its request line or a header could not be parsed'),
  // Stryker disable next-line StringLiteral: the code is never shown: these answers come from client-error.ts, whose envelope shows the HTTP status instead.
  requestTimeout: () => new ApiError(408, 'REQUEST_TIMEOUT', 'The request was not received in time'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests', false, { 'retry-after': String(retryAfterSeconds) }),
  // Media links (signed, expiring) and Range requests.
  mediaLinkExpired: (expiredAt: string) => new ApiError(403, 'LINK_EXPIRED', `This link expired at ${expiredAt}`),
  mediaSignatureInvalid: () => new ApiError(403, 'INVALID_SIGNATURE', 'The link signature is missing or does not match'),
  /** A recording's files let go to stay within the emulator's disk limit (--recording-disk-limit). */
  mediaGone: (message: string) => new ApiError(410, 'GONE', message),
  rangeNotSatisfiable: (size: number) =>
    // Stryker disable next-line BooleanLiteral: a 416 is raised only on the /media routes, which answer in the control shape and never read the v2 prefix.
    new ApiError(416, 'RANGE_NOT_SATISFIABLE', `The requested range is not within the ${size} bytes of the file`, false, {
      'content-range': `bytes */${size}`,
    }),
  /** A fault rule's answer (control API: POST /_emulator/faults). */
  injected: (status: number, ruleId: string) => new ApiError(status, 'INJECTED_FAULT', `Injected fault (${ruleId})`),
  // v1 product registry (emulator decisions, docs/api-v1.md)
  invalidProductCode: (code: string) =>
    new ApiError(
      400,
      'INVALID_PRODUCT_CODE',
      `"${code}" is not a product code: expected {category_code}-{PRODUCT_ID} or {category_code}-{PRODUCT_ID}-{check digits}`,
    ),
  invalidCheckDigits: (code: string, expected: string) =>
    new ApiError(400, 'INVALID_CHECK_DIGITS', `"${code}" has wrong check digits (ISO 7064 MOD 97-10): expected ${expected}`),
  unknownCategory: (code: string) =>
    new ApiError(400, 'UNKNOWN_CATEGORY', `"category_code" ${code} is not a known category (GET /_emulator/categories lists them)`),
  invalidCarbonFootprint: () =>
    new ApiError(400, 'INVALID_CARBON_FOOTPRINT', '"attributes.carbon_footprint" must read "<number> <unit>", such as "12.5 kgCO2e"'),
  productExists: (svcCode: string) => new ApiError(409, 'PRODUCT_EXISTS', `A product with code ${svcCode} already exists`),
  productNotFound: (code: string) => new ApiError(404, 'NOT_FOUND', `No product found with code ${code}`),
  // webhooks (emulator decisions: the contract shows no limit and no uniqueness rule)
  // Stryker disable next-line StringLiteral: the code is never shown: the v2 webhook routes answer in an envelope that shows the HTTP status instead.
  webhookLimit: (max: number) => new ApiError(400, 'LIMIT_EXCEEDED', `An organization can register at most ${max} webhooks; delete one first`),
  // Stryker disable next-line StringLiteral: the code is never shown: the v2 webhook routes answer in an envelope that shows the HTTP status instead.
  webhookUrlTaken: (url: string, id: string) => new ApiError(409, 'WEBHOOK_URL_TAKEN', `A webhook with url ${url} already exists (id ${id})`),
  // presets: one name per organization (participants are added by preset name)
  // Stryker disable next-line StringLiteral: the code is never shown: the v2 preset routes answer in an envelope that shows the HTTP status instead.
  presetNameTaken: (name: string, id: string) => new ApiError(409, 'PRESET_NAME_TAKEN', `A preset with name ${name} already exists (id ${id})`),
  deliveryInFlight: (id: string) => new ApiError(409, 'DELIVERY_IN_FLIGHT', `Delivery ${id} has an attempt in flight; try again once it has finished`),
  internal: () => new ApiError(500, 'INTERNAL_ERROR', 'Internal error in the emulator'),
};

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
