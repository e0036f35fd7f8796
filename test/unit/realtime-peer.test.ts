// A page's end of the signalling socket on its own: frames go out only on an open socket, a close
// is said once and marks the page gone, and the flood limit counts frames per real second.
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
});
