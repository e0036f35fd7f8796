// What the current HTTP request is, for code that runs inside it without being handed it
// (the webhook outbox links the deliveries a request caused to its journal entry).
//
// The scope covers the synchronous part of a handler, which is where every domain event is
// published (services apply transitions synchronously). A plain variable does that at a
// fraction of AsyncLocalStorage's cost per request (measured: ~9% of a request's CPU).

export interface RequestScopeData {
  requestId: string;
  /** Ids of webhook deliveries created while handling this request. */
  deliveries: string[];
}

export class RequestScope {
  private active: RequestScopeData | undefined;

  /** Runs `fn` with `data` as the current scope; the scope ends when `fn` returns (or its first await). */
  run<T>(data: RequestScopeData, fn: () => T): T {
    const outer = this.active;
    this.active = data;
    try {
      return fn();
    } finally {
      this.active = outer;
    }
  }

  current(): RequestScopeData | undefined {
    return this.active;
  }
}
