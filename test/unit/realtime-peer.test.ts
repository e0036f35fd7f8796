// A page's end of the signalling socket on its own: frames go out only on an open socket, a close
// is said once and marks the page gone, the flood limit counts frames per real second, and a round
// trip ends with the page's answer to its own ping.
import { describe, expect, it } from 'vitest';
import { Peer, type PageSocket } from '../../src/realtime/peer.js';
import { decodeEnvelope } from '../../src/realtime/protocol/codec.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

class FakeSocket implements PageSocket {
  readonly OPEN = OPEN;
  readonly CONNECTING = CONNECTING;
  readonly sent: (Uint8Array | string)[] = [];
  readonly closes: [number, string][] = [];
  constructor(public readyState: number) {}
  send(data: Uint8Array | string): void {
    this.sent.push(data);
  }
  close(code: number, reason: string): void {
    this.closes.push([code, reason]);
  }
  on(): unknown {
    return this;
  }
}

const claims = { orgId: 'org', meetingId: 'm1', participantId: 'p1', presetId: 'preset', iat: 0, exp: 1 };

describe('a page', () => {
  it('starts in no room and not gone', () => {
    const peer = new Peer(new FakeSocket(OPEN), claims, 'peer-1');
    expect([peer.roomJoined, peer.mediaJoined, peer.gone]).toEqual([false, false, false]);
    expect([peer.participantId, peer.meetingId]).toEqual(['p1', 'm1']);
  });

  it('sends a frame (event, id, payload) only while its socket is open', () => {
    const open = new FakeSocket(OPEN);
    new Peer(open, claims, 'peer-1').send(3, 'id-1', null);
    expect(open.sent).toHaveLength(1);
    expect(decodeEnvelope(open.sent[0] as Uint8Array)).toMatchObject({ event: 3, id: 'id-1' });
    for (const state of [CONNECTING, CLOSED]) {
      const socket = new FakeSocket(state);
      new Peer(socket, claims, 'peer-1').send(3, 'id-1', null);
      expect(socket.sent).toEqual([]);
    }
  });

  it('closes an open or opening socket with the code and reason; a closed one is left alone; the page is gone either way', () => {
    for (const state of [OPEN, CONNECTING]) {
      const socket = new FakeSocket(state);
      const peer = new Peer(socket, claims, 'peer-1');
      peer.close(4003, 'Removed from the meeting');
      expect(socket.closes).toEqual([[4003, 'Removed from the meeting']]);
      expect(peer.gone).toBe(true);
    }
    const closed = new FakeSocket(CLOSED);
    const peer = new Peer(closed, claims, 'peer-1');
    peer.close(4003, 'Removed from the meeting');
    expect(closed.closes).toEqual([]);
    expect(peer.gone).toBe(true);
  });

  it('floods past 200 frames within one second; a new second starts the count again', () => {
    let now = 10_000;
    const peer = new Peer(new FakeSocket(OPEN), claims, 'peer-1', () => now);
    for (let i = 0; i < 200; i++) expect(peer.flooding()).toBe(false);
    now += 999;
    expect(peer.flooding()).toBe(true);
    now += 1;
    for (let i = 0; i < 200; i++) expect(peer.flooding()).toBe(false);
    expect(peer.flooding()).toBe(true);
  });

  it('says each kind of problem once', () => {
    const peer = new Peer(new FakeSocket(OPEN), claims, 'peer-1');
    expect([peer.once('flood'), peer.once('flood'), peer.once('text')]).toEqual([true, false, true]);
  });

  it('a round trip pings the page and ends with the answer to that ping, not an earlier one; pings are answered in order', async () => {
    const socket = new FakeSocket(OPEN);
    const peer = new Peer(socket, claims, 'peer-1');
    peer.ping();
    const ended: string[] = [];
    const first = peer.roundTrip().then((answered) => ended.push(`first:${answered}`));
    const second = peer.roundTrip().then((answered) => ended.push(`second:${answered}`));
    expect(socket.sent).toEqual(['2', '2', '2']);
    peer.pong();
    await Promise.resolve();
    expect(ended).toEqual([]);
    peer.pong();
    await first;
    expect(ended).toEqual(['first:true']);
    peer.pong();
    await second;
    expect(ended).toEqual(['first:true', 'second:true']);
  });

  it('a round trip ends unanswered when the page goes first, and at once for a page already gone or a socket not open', async () => {
    const peer = new Peer(new FakeSocket(OPEN), claims, 'peer-1');
    const pending = peer.roundTrip();
    peer.closed();
    expect(await pending).toBe(false);
    expect(await peer.roundTrip()).toBe(false);
    const closing = new Peer(new FakeSocket(OPEN), claims, 'peer-2');
    const cut = closing.roundTrip();
    closing.close(4003, 'Removed from the meeting');
    expect(await cut).toBe(false);
    const notOpen = new FakeSocket(CLOSED);
    expect(await new Peer(notOpen, claims, 'peer-3').roundTrip()).toBe(false);
    expect(notOpen.sent).toEqual([]);
  });
});
