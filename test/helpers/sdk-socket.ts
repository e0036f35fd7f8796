// A signalling-socket client that speaks as the web SDK does (binary socket messages, text
// pings, the emulator's each answered as it is read), for tests that drive the emulator's rooms
// from Node: every request and push is read with the same .proto files the emulator uses.
import { expect } from 'vitest';
import WebSocket from 'ws';
import { decode, decodeEnvelope, encode, encodeEnvelope, type ProtoObject } from '../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../src/realtime/protocol/events.js';

export interface Frame {
  event: number;
  id: string;
  payload: Uint8Array;
}

/** An upgrade the emulator refused: the HTTP status and the body it explained itself with. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused with ${status}: ${body}`);
  }
}

export interface SocketQuery {
  token?: string;
  peerId?: string;
  roomId?: string;
  path?: string;
}

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;
const ERROR_EVENT = MEDIA.errorResponse;

export class SdkSocket {
  readonly frames: Frame[] = [];
  readonly texts: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Whether the socket answers the emulator's pings as it reads them, as the SDK does; a test may hold them back and answer with pong(). */
  answerPings = true;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private pingWaiters: (() => void)[] = [];
  private seq = 0;
  /** The ids of this socket's own requests: their answers are not pushes. */
  private readonly asked = new Set<string>();

  private constructor(
    readonly ws: WebSocket,
    readonly peerId: string,
  ) {
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) {
        const text = data.toString('utf8');
        if (text === '2') {
          if (this.answerPings) ws.send('3');
          for (const w of this.pingWaiters.splice(0)) w();
        }
        return void this.texts.push(text);
      }
      const env = decodeEnvelope(data);
      const frame = { event: env.event, id: env.id ?? '', payload: env.payload };
      this.frames.push(frame);
      for (const w of [...this.waiters])
        if (w.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(frame);
        }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Opens a socket at `<base>/ws?roomID&peerID&authToken`, or rejects with Refused. */
  static open(baseUrl: string, q: SocketQuery): Promise<SdkSocket> {
    const url = new URL(q.path ?? '/ws', baseUrl.replace(/^http/, 'ws'));
    if (q.roomId !== undefined) url.searchParams.set('roomID', q.roomId);
    if (q.peerId !== undefined) url.searchParams.set('peerID', q.peerId);
    if (q.token !== undefined) url.searchParams.set('authToken', q.token);
    const ws = new WebSocket(url, { rejectUnauthorized: false });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new SdkSocket(ws, q.peerId ?? '')));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => reject(new Refused(res.statusCode ?? 0, body)));
      });
      ws.once('error', reject);
    });
  }

  /** Sends a request and waits for the frame that answers its id: the answer's payload, decoded; rejects with the error reply's message. */
  async request(event: number, type: string | null, body: ProtoObject, answerType: string | null): Promise<ProtoObject> {
    const id = `${this.peerId}-${++this.seq}`;
    this.asked.add(id);
    const answered = this.next((f) => f.id === id);
    this.sendRaw(encodeEnvelope({ event, id, payload: type ? encode(type, body) : new Uint8Array() }));
    const frame = await answered;
    if (frame.event === ERROR_EVENT && event !== ERROR_EVENT) throw new Error(String(decode('media.edge.ErrorResponse', frame.payload).error_message));
    return answerType ? decode(answerType, frame.payload) : {};
  }

  /** Sends a request the way the SDK sends one it does not wait on (a removal, the end for all): its id, for errorReply. */
  fire(event: number, type: string | null, body: ProtoObject = {}): string {
    const id = `${this.peerId}-${++this.seq}`;
    this.sendRaw(encodeEnvelope({ event, id, payload: type ? encode(type, body) : new Uint8Array() }));
    return id;
  }

  /** The answer to a request (by id), which must be the SDK's error reply: its message. */
  async errorReply(id: string): Promise<string> {
    const frame = await this.next((f) => f.id === id);
    expect(frame.event).toBe(ERROR_EVENT);
    return String(decode('media.edge.ErrorResponse', frame.payload).error_message);
  }

  /** The media room's join, as the SDK sends it before the room's. */
  async joinMedia(meetingId: string, name: string): Promise<void> {
    await this.request(MEDIA.joinRoom, 'media.edge.PeerJoinRequest', { room_uuid: meetingId, display_name: name }, null);
  }

  /** The room's join as the SDK sends it for a participant (its id and name): the PeerInfoResponse, whose `peer` is the page's own. */
  joinRoom(who: { id: string; name: string }): Promise<ProtoObject> {
    return this.request(
      ROOM.joinRoom,
      'socket.room.JoinRoomRequest',
      { peer: { peer_id: this.peerId, user_id: who.id, display_name: who.name }, room_uuid: '' },
      'socket.room.PeerInfoResponse',
    );
  }

  /** What the SDK sends once its join is through (selfJoinComplete): the answer. */
  completeJoin(): Promise<ProtoObject> {
    return this.request(MEDIA.selfJoinComplete, 'media.edge.PeerJoinCompleteRequest', {}, 'media.edge.PeerJoinCompleteResponse');
  }

  sendRaw(data: Uint8Array | string): void {
    this.ws.send(data);
  }

  /** The next frame (already received or to come) that matches, not counting those taken before. */
  next(match: (f: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The first push (a frame that answers none of this socket's requests) of an event, so far or later, decoded as `type`. */
  async push(event: number, type: string, where: (body: ProtoObject) => boolean = () => true): Promise<ProtoObject> {
    const match = (f: Frame) => f.event === event && !this.asked.has(f.id) && where(decode(type, f.payload));
    const frame = this.frames.find(match) ?? (await this.next(match));
    return decode(type, frame.payload);
  }

  /** The next ping the emulator sends. */
  pinged(): Promise<void> {
    return new Promise((resolve) => this.pingWaiters.push(resolve));
  }

  /** Answers a ping held back (answerPings false). */
  pong(): void {
    this.ws.send('3');
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close(1000);
    return this.closed;
  }
}

/**
 * The sockets of a test's pages: each opened as a participant's page opens it, all ended at once
 * when the test ends (terminated: no close handshake to wait for).
 */
export class PageSockets {
  private readonly opened: SdkSocket[] = [];

  /** A participant's socket in a meeting, with the peer id `peer-<name in lower case>` unless another is given. */
  async open(baseUrl: string, meetingId: string, who: { token: string; name: string }, peerId = `peer-${who.name.toLowerCase()}`): Promise<SdkSocket> {
    const s = await SdkSocket.open(baseUrl, { token: who.token, peerId, roomId: meetingId });
    this.opened.push(s);
    return s;
  }

  /** Ends every socket opened so far. */
  terminate(): void {
    for (const s of this.opened.splice(0)) s.ws.terminate();
  }
}
