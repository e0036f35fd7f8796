// A misbehaving webhook receiver on 127.0.0.1, written on raw TCP (node:net) so that it can do
// what an HTTP server library would not: reset the connection halfway through the request body,
// send half a status line and hang up, or reset halfway through its own answer. Each request is
// a hit, counted per dyte-uuid the moment its headers are read, whatever happens next.
import { createServer, type Server, type Socket } from 'node:net';

/** Ports below Linux's default range for `listen(0)` (32768-60999): see deadPort(). */
const DEAD_PORTS = { first: 20_000, count: 12_000 };
let deadPortCalls = 0;

export type Fault =
  /** A complete answer, optionally after a delay (real ms, from when the request was read). */
  | { kind: 'status'; code: number; afterMs?: number }
  /** Reads the whole request and never answers. */
  | { kind: 'hang' }
  /** Reads the headers and part of the body, then resets the connection (RST). */
  | { kind: 'reset-mid-body' }
  /** Reads the request, sends part of the status line and headers, then closes. */
  | { kind: 'partial-headers' }
  /** Sends complete 200 headers and part of the announced body, then resets the connection. */
  | { kind: 'reset-mid-answer' };

/** What to do with a request: `hit` counts the earlier requests with the same dyte-uuid. */
export type Script = (hit: number, uuid: string) => Fault;

export interface Hit {
  uuid: string;
  /** 0 for the first request with this uuid. */
  nth: number;
  fault: Fault['kind'];
  /** Body bytes read before acting (less than content-length for reset-mid-body). */
  bodyBytes: number;
  contentLength: number;
  /** The status sent in full, or null (no complete answer). */
  answered: number | null;
}

const CRLF2 = '\r\n\r\n';

export class FaultReceiver {
  readonly hits: Hit[] = [];
  private sockets = new Set<Socket>();
  private timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    public script: Script,
  ) {}

  /** Listens on `port` (0: any free port). */
  static async start(script: Script, port = 0): Promise<FaultReceiver> {
    const server = createServer();
    const receiver = new FaultReceiver(server, script);
    server.on('connection', (socket) => receiver.serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  /**
   * A port nothing listens on, and that no other test's server will be given meanwhile: it lies
   * below the kernel's range for `listen(0)`. A port from that range, given back at once, went
   * to the next server another test process started (Linux hands out the same free port again),
   * and the "refused" attempt then reached that server. Each call tries the next port of this
   * process's own run of ports, skipping any that something holds.
   */
  static async deadPort(): Promise<number> {
    for (;;) {
      const port = DEAD_PORTS.first + ((process.pid * 37 + deadPortCalls++) % DEAD_PORTS.count);
      const server = createServer();
      const free = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (!free) continue;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Hits per dyte-uuid. */
  counts(): Map<string, number> {
    const m = new Map<string, number>();
    for (const h of this.hits) m.set(h.uuid, (m.get(h.uuid) ?? 0) + 1);
    return m;
  }

  /** Cuts every open connection (held requests end as a connection error for the sender). */
  dropAll(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    // The sender may give up first (timeout): a late write then fails, which is fine here.
    socket.on('error', () => {});
    socket.on('close', () => this.sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    let busy = false;
    const next = () => {
      if (busy || socket.destroyed) return;
      const end = buffer.indexOf(CRLF2);
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1');
      const headers = new Map<string, string>();
      for (const line of head.split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
      }
      const contentLength = Number(headers.get('content-length') ?? 0);
      const uuid = headers.get('dyte-uuid') ?? '';
      const nth = this.hits.filter((h) => h.uuid === uuid).length;
      const fault = this.script(nth, uuid);
      const available = buffer.length - end - CRLF2.length;
      if (fault.kind === 'reset-mid-body') {
        // Read about half of the body, never the rest: closing with unread data sends a RST.
        this.hits.push({ uuid, nth, fault: fault.kind, bodyBytes: Math.min(available, Math.floor(contentLength / 2)), contentLength, answered: null });
        socket.pause();
        socket.resetAndDestroy();
        return;
      }
      if (available < contentLength) return; // wait for the rest of the body
      buffer = buffer.subarray(end + CRLF2.length + contentLength);
      const hit: Hit = { uuid, nth, fault: fault.kind, bodyBytes: contentLength, contentLength, answered: null };
      this.hits.push(hit);
      busy = true;
      this.act(socket, fault, hit, () => {
        busy = false;
        next();
      });
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      next();
    });
  }

  private act(socket: Socket, fault: Fault, hit: Hit, done: () => void): void {
    switch (fault.kind) {
      case 'hang':
        return;
      case 'partial-headers':
        socket.end('HTTP/1.1 200 OK\r\nContent-Ty');
        socket.destroySoon();
        return;
      case 'reset-mid-answer':
        hit.answered = null;
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\nonly ten b', () => socket.resetAndDestroy());
        return;
      case 'status': {
        const answer = () => {
          if (socket.destroyed) return;
          socket.write(`HTTP/1.1 ${fault.code} Scripted\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok`);
          hit.answered = fault.code;
          done();
        };
        if (!fault.afterMs) return answer();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          answer();
        }, fault.afterMs);
        this.timers.add(timer);
        return;
      }
    }
  }
}
