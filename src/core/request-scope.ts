// What the current HTTP request is, for code that runs inside it without being handed it
// (the webhook outbox links the deliveries a request caused to its journal entry).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScopeData {
  requestId: string;
  /** Ids of webhook deliveries created while handling this request. */
  deliveries: string[];
}

export class RequestScope {
  private readonly storage = new AsyncLocalStorage<RequestScopeData>();

  run<T>(data: RequestScopeData, fn: () => T): T {
    return this.storage.run(data, fn);
  }

  current(): RequestScopeData | undefined {
    return this.storage.getStore();
  }
}
