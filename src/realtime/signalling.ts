// The web SDK's signalling socket: wss://socket-edge.<base>/ws. The listeners hand every HTTP
// upgrade here; an upgrade this module does not serve is answered with a plain HTTP error and
// closed, so a stray WebSocket client learns why instead of hanging.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export interface SignallingServer {
  /** Takes over an HTTP upgrade request (the `upgrade` event of a listener). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (shutdown). */
  close(): Promise<void>;
}

/** Until the socket is served: every upgrade is refused with 404. */
export function createSignallingServer(): SignallingServer {
  return {
    upgrade(_req, socket) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    },
    close: () => Promise.resolve(),
  };
}
