// A page's end of the signalling socket: its socket, who it is (the token's claims and the SDK's
// peer id), where it is in the join (the socket room, then the media room), and the guards every
// socket has (a flood limit on real time, one log line per kind of problem).
import { realNow } from '../core/clock.js';
import type { ParticipantClaims } from '../domain/participants/participant-tokens.js';
import { encode, encodeEnvelope, type ProtoObject } from './protocol/codec.js';

/**
 * What the rooms use of a page's WebSocket (ws's WebSocket is one): kept structural so that the
 * package's public types do not depend on ws's.
 */
export interface PageSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly CONNECTING: number;
  send(data: Uint8Array | string): void;
  close(code: number, reason: string): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** Close codes a page sees, each with its reason text. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  malformed: 1007,
  policy: 1008,
  reset: 4000,
  expired: 4001,
  removed: 4003,
  replaced: 4009,
} as const;

/** A page that sends more frames than this in one real second is flooding: its socket is closed. */
export const MAX_FRAMES_PER_SECOND = 200;

export class Peer {
  roomJoined = false;
  mediaJoined = false;
  /** Its socket is closed or closing: nothing more is sent to it or served for it. */
  gone = false;
  private readonly logged = new Set<string>();
  private frames = 0;
  private windowStart = 0;

  constructor(
    readonly ws: PageSocket,
    readonly claims: ParticipantClaims,
    readonly peerId: string,
    /** Real time, for the flood limit (tests give their own). */
    private readonly now: () => number = realNow,
  ) {}

  get participantId(): string {
    return this.claims.participantId;
  }

  get meetingId(): string {
    return this.claims.meetingId;
  }

  /** Whether this frame is over the flood limit (real time: a flood is about the machine, not the meeting). */
  flooding(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.frames = 0;
    }
    return ++this.frames > MAX_FRAMES_PER_SECOND;
  }

  /** One log line per kind of problem per socket: a misbehaving page cannot flood the log. */
  once(kind: string): boolean {
    if (this.logged.has(kind)) return false;
    this.logged.add(kind);
    return true;
  }

  send(event: number, id: string, type: string | null, body: ProtoObject = {}): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const payload = type ? encode(type, body) : new Uint8Array();
    this.ws.send(encodeEnvelope({ event, id, payload }));
  }

  close(code: number, reason: string): void {
    this.gone = true;
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }
}

/** A request the emulator cannot serve: answered on the SDK's error event, which rejects the page's pending call. */
export class Unserved extends Error {}
