// One error model (STYLE habit 5). Services throw ApiError; one middleware renders it in the
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
  badRequest: (message: string, code = 'BAD_REQUEST') => new ApiError(400, code, message),
  malformedJson: () => new ApiError(400, 'BAD_REQUEST', 'Request body is not valid JSON', true),
  unauthorized: (message = 'Unauthorized') => new ApiError(401, 'UNAUTHORIZED', message),
  forbidden: (message: string) => new ApiError(403, 'FORBIDDEN', message),
  notFound: (kind: ResourceKind, id: string) => new ApiError(404, 'NOT_FOUND', `No ${kind} found with id ${id}`),
  notFoundMessage: (message: string) => new ApiError(404, 'NOT_FOUND', message),
  routeNotFound: (method: string, path: string) => new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${method} ${path}`),
  conflict: (message: string, code = 'CONFLICT') => new ApiError(409, code, message),
  payloadTooLarge: (limit: string) => new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit}`),
  unsupportedMediaType: (type: string) =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type || '(none)'} is not supported; send application/json`),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests', false, { 'retry-after': String(retryAfterSeconds) }),
  internal: () => new ApiError(500, 'INTERNAL_ERROR', 'Internal error in the emulator'),
};

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
