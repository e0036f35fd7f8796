// Every request of the dashboard goes to the emulator that served it (relative URLs only): the
// control API without credentials, the v2 API with the organization's key, which is read from
// the state export when an action first needs it and kept in memory, never shown unless asked.
export class RequestFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The message of an answer in any of the emulator's error shapes. */
function messageOf(body: unknown, status: number): string {
  const b = body as { error?: { message?: string } | string; message?: string } | undefined;
  if (b && typeof b.error === 'object' && b.error?.message) return b.error.message;
  if (b && typeof b.error === 'string') return b.error;
  if (b && typeof b.message === 'string') return b.message;
  return `HTTP ${status}`;
}

export async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(path, init);
  const parsed = await parse(res);
  if (!res.ok) throw new RequestFailed(res.status, `${method} ${path}: ${messageOf(parsed, res.status)}`);
  return parsed as T;
}

export const control = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  del: (path: string) => call<void>('DELETE', path),
};

const keys = new Map<string, string>();

/** An organization's API key, from the state export (the control API's one place that holds it). */
export async function apiKeyOf(orgId: string): Promise<string> {
  const known = keys.get(orgId);
  if (known) return known;
  const state = await control.get<{ organizations: Array<{ id: string; api_key: string }> }>('/_emulator/state');
  for (const o of state.organizations) keys.set(o.id, o.api_key);
  const key = keys.get(orgId);
  if (!key) throw new Error(`No API key for organization ${orgId}`);
  return key;
}

/** Remembers a key the control API just gave (a new organization). */
export function rememberKey(orgId: string, key: string): void {
  keys.set(orgId, key);
}

export function forgetKeys(): void {
  keys.clear();
}

/** A v2 call as the organization; answers the `data` of the envelope. */
export async function v2<T>(orgId: string, method: string, path: string, body?: unknown): Promise<T> {
  const key = await apiKeyOf(orgId);
  const auth = `Basic ${btoa(`${orgId}:${key}`)}`;
  const answer = await call<{ data: T }>(method, path, body ?? (method === 'GET' ? undefined : {}), { authorization: auth });
  return answer.data;
}
