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
  /** Ends the connection at once, without a close frame (ws's terminate): a network that failed. */
  terminate?(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
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
  /**
   * Its socket was lost without a word (no close frame) while it was in the meeting: its participant
   * stays in the meeting for a while, in case the page comes back (rooms.ts).
   */
  lost = false;
  private readonly logged = new Set<string>();
  private frames = 0;
  private windowStart = 0;
  private pingsSent = 0;
  private pongs = 0;
  /** Round trips waiting for the page's answer to the ping they sent (its number among the pings). */
  private readonly roundTrips: { ping: number; answered: (yes: boolean) => void }[] = [];

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

  /** Pings the page: the SDK answers each "2" with a "3" as it reads it, in order. */
  ping(): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send('2');
    this.pingsSent++;
  }

  /** The page answered a ping. */
  pong(): void {
    this.pongs++;
    for (const r of this.roundTrips.filter((r) => r.ping <= this.pongs)) {
      this.roundTrips.splice(this.roundTrips.indexOf(r), 1);
      r.answered(true);
    }
  }

  /**
   * A round trip to the page: true once it answers a ping sent now. By then it has read every
   * frame sent before (a socket is in order), and what reading them made it send has arrived
   * first; false if its socket goes first.
   */
  roundTrip(): Promise<boolean> {
    if (this.gone || this.ws.readyState !== this.ws.OPEN) return Promise.resolve(false);
    this.ping();
    return new Promise((answered) => this.roundTrips.push({ ping: this.pingsSent, answered }));
  }

  /** Its socket was lost while in the meeting: gone, but still present for the others until it comes back or its time is up. */
  lose(): void {
    this.lost = true;
    this.closed();
  }

  /** Cuts its connection without a close frame, as a failed network would (a network scenario). */
  cut(): void {
    if (this.ws.terminate) this.ws.terminate();
    else this.ws.close(CLOSE.goingAway, 'Connection lost');
  }

  /** Its socket is gone: no round trip will be answered. */
  closed(): void {
    this.gone = true;
    for (const r of this.roundTrips.splice(0)) r.answered(false);
  }

  send(event: number, id: string, type: string | null, body: ProtoObject = {}): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const payload = type ? encode(type, body) : new Uint8Array();
    this.ws.send(encodeEnvelope({ event, id, payload }));
  }

  close(code: number, reason: string): void {
    this.closed();
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }
}

export { Unserved } from './unserved.js';
