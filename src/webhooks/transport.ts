// How a webhook request leaves the emulator. The outbox talks to this interface only; the
// container picks the implementation (HTTP here, a recording transport in unit tests).
import http from 'node:http';
import https from 'node:https';

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The receiver must answer within this many ms, or the attempt fails. */
  timeoutMs: number;
}

/** statusCode is null when no answer came (connection error, timeout); error says why it failed. */
export interface TransportResult {
  statusCode: number | null;
  error: string | null;
  /**
   * False when no answer came and the request never fully left the emulator (cut off while
   * connecting or writing): the receiver cannot have it. Absent means it was sent.
   */
  sent?: boolean;
}

export interface WebhookTransport {
  send(request: TransportRequest): Promise<TransportResult>;
  /** Frees sockets (server shutdown, test teardown). */
  close(): void;
}

/**
 * POST over node:http/https. An attempt succeeds or fails on the status line: the answer's
 * headers must arrive within `timeoutMs` (counted from the start, connection included). The
 * answer's body is drained and ignored. Redirects are not followed (a 3xx fails the attempt).
 * Each request has its own timer, and the agents have no socket cap, so a receiver that never
 * answers holds only its own requests.
 */
export class HttpTransport implements WebhookTransport {
  private httpAgent = new http.Agent({ keepAlive: true });
  private httpsAgent = new https.Agent({ keepAlive: true });

  send(request: TransportRequest): Promise<TransportResult> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: TransportResult) => {
        // Stryker disable next-line ConditionalExpression: finish() only resolves a promise, and a second resolve() is ignored.
        if (settled) return;
        // Stryker disable next-line BooleanLiteral: finish() only resolves a promise, and a second resolve() is ignored.
        settled = true;
        resolve(result);
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        finish({ statusCode: null, error: `Invalid URL ${request.url}` });
        return;
      }
      const isHttps = url.protocol === 'https:';
      if (!isHttps && url.protocol !== 'http:') {
        finish({ statusCode: null, error: `Unsupported protocol ${url.protocol}` });
        return;
      }
      const client = isHttps ? https : http;
      const req = client.request(url, {
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        headers: { ...request.headers, 'content-length': String(request.body.length) },
      });
      // 'finish': the whole request has been handed to the operating system.
      let written = false;
      req.on('finish', () => (written = true));
      const timer = setTimeout(() => {
        // An answer sent in time may be waiting on the socket, unread because the event loop was
        // busy when the deadline came: let one poll phase read it before calling the attempt late
        // (two immediates: the first may run before the next poll). The deadline is inclusive.
        setImmediate(() =>
          setImmediate(() => {
            finish({ statusCode: null, error: `Timed out: no answer within ${request.timeoutMs} ms`, sent: written });
            req.destroy();
          }),
        );
      }, request.timeoutMs);
      req.on('response', (res) => {
        finish({ statusCode: res.statusCode ?? null, error: null });
        res.on('end', () => clearTimeout(timer));
        res.on('error', () => clearTimeout(timer));
        res.resume();
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        finish({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message, sent: written });
      });
      req.end(request.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.httpAgent = new http.Agent({ keepAlive: true });
    this.httpsAgent = new https.Agent({ keepAlive: true });
  }
}
