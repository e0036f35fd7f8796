// The request and response classes node:http makes its objects with, for a server that serves an
// Express app. Express gives every request and response its own prototypes as it starts on them
// (Object.setPrototypeOf in app.handle). Changing an object's prototype gives it a new hidden
// class, so the functions that read its properties afterwards (Node's and Express's, on every
// request) see objects of many shapes and V8 runs them on its slow path. Objects made with the
// app's prototypes from the start keep one shape: Express's call then finds the prototype it
// sets already in place, which V8 skips.
import { IncomingMessage, ServerResponse } from 'node:http';

/** What createServer takes, and what the app hands its prototypes to once it exists. */
export interface MessageClasses {
  readonly options: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };
  /** From now on the server's requests and responses are made with these prototypes (an Express app's `request` and `response`). */
  adopt(prototypes: { request: object; response: object }): void;
}

/**
 * The server listens before the app is built (so that the URLs it hands out carry the real port),
 * so the prototypes are given later; until then the objects are node:http's own. `base`: the
 * classes the objects are made by (node:http's).
 */
export function messageClasses(base: MessageClasses['options'] = { IncomingMessage, ServerResponse }): MessageClasses {
  // node:http's classes are plain constructor functions, which a subclass calls on its own object
  // (as Node's own code does). Should a later Node make them ES classes, which cannot be called
  // so, the server keeps its own classes and Express sets the prototypes as before.
  if (isClass(base.IncomingMessage) || isClass(base.ServerResponse)) return { options: base, adopt() {} };
  const incoming = base.IncomingMessage as unknown as (this: IncomingMessage, ...args: unknown[]) => void;
  const outgoing = base.ServerResponse as unknown as (this: ServerResponse, ...args: unknown[]) => void;
  // Functions whose `prototype` can be set: `new` makes the object with the one they hold then.
  // Whatever node:http passes them goes on whole.
  function Request(this: IncomingMessage, ...args: unknown[]): void {
    incoming.apply(this, args);
  }
  function Response(this: ServerResponse, ...args: unknown[]): void {
    outgoing.apply(this, args);
  }
  const setPrototypes = (request: object, response: object) => {
    (Request as { prototype: object }).prototype = request;
    (Response as { prototype: object }).prototype = response;
  };
  setPrototypes(base.IncomingMessage.prototype, base.ServerResponse.prototype);
  return {
    options: { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse },
    adopt: ({ request, response }) => setPrototypes(request, response),
  };
}

function isClass(f: unknown): boolean {
  return Function.prototype.toString.call(f).startsWith('class');
}
