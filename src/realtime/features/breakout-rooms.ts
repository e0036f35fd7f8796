// Breakout rooms from the page (the SDK's meeting.connectedMeetings): the family of meetings a
// page is in (its parent and open rooms, with who is in each), a host opening and closing rooms
// and moving people between them, and a participant switching by themselves where their preset
// allows. The rules live in the domain (ConnectedMeetingsService); this module checks the
// page's preset, answers, and tells the pages:
//
// - the dump (GetConnectedRoomsDumpResponse), as the answer to a page's request and pushed to
//   every page of the family whenever someone joins or leaves one of its meetings;
// - rooms opened (connectedRoomsUpdated) and closed (connectedRoomsDeleted);
// - a page asked to move hears transferPeer with the destination and a participant token for
//   it (the same person's participant there): the SDK leaves, starts anew with that token and
//   joins the destination, as it does when the real service moves it.
//
// Pushes wait until the request that caused them is answered: the SDK applies a move to its own
// list when the answer comes, and a dump that came first would be applied twice.
import type { DomainEvent } from '../../domain/events.js';
import type { Meeting } from '../../domain/models.js';
import type { PresetPermissions } from '../../domain/presets/preset-document.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM } = SDK_EVENTS;

/** The status a closed room is answered with (the meeting's own, once closed). */
const CLOSED = 'INACTIVE';

type ConnectedMeetingsPermissions = PresetPermissions['connected_meetings'];

export class BreakoutRoomsFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    // A page not in the meeting (waiting, rejected) sees the rooms, not who is in them.
    [
      ROOM.getConnectedRoomsDump,
      (p, id) => p.send(ROOM.getConnectedRoomsDump, id, 'socket.room.GetConnectedRoomsDumpResponse', this.dump(p.meetingId, p.roomJoined)),
    ],
    [ROOM.createConnectedRooms, (p, id, b) => this.open(p, id, b)],
    [ROOM.deleteConnectedRooms, (p, id, b) => this.close(p, id, b)],
    [ROOM.movePeers, (p, id, b) => this.move(p, id, b)],
  ];

  /** Parents whose families hear a fresh dump once the current request is answered. */
  private readonly staleFamilies = new Set<string>();
  private readonly pushes: (() => void)[] = [];
  private flushQueued = false;

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    switch (e.type) {
      case 'participant.joined':
      case 'participant.left':
        if (this.state.rooms.size === 0) return;
        if (this.cm.inFamily(e.meeting)) this.refresh(e.meeting.parentMeetingId ?? e.meeting.id);
        return;
      case 'breakout.roomsChanged': {
        const payloads = e.rooms.map((r) => ({ id: r.id, title: r.title ?? '', ...(e.change === 'closed' ? { status: CLOSED } : {}) }));
        const pages = [...this.familyPages(e.meeting.id), ...(e.change === 'closed' ? e.rooms.flatMap((r) => this.joinedPages(r.id)) : [])];
        this.later(() => {
          for (const page of pages)
            if (e.change === 'closed') page.send(ROOM.connectedRoomsDeleted, this.state.newId(), 'socket.room.DisableConnectedRoomsResponse', { payloads });
            else page.send(ROOM.connectedRoomsUpdated, this.state.newId(), 'socket.room.CreateConnectedRoomsResponse', { payloads });
        });
        return;
      }
      case 'breakout.moved':
        for (const t of e.transfers) {
          if (!t.byPage) continue;
          const pages = this.joinedPages(e.meeting.id).filter((p) => p.participantId === t.from.id);
          this.later(() => void this.transfer(pages, e.destination, t.to.id));
        }
        return;
    }
  }

  // --- what a page asks -------------------------------------------------------------------------

  /** connectedMeetings.createMeetings([{title}]): real meetings, children of the family's parent. */
  private open(peer: Peer, id: string, payload: Uint8Array): void {
    const { payloads } = decodeAs<{ payloads: { title?: string }[] }>('socket.room.CreateConnectedRoomsRequest', payload);
    this.mayAlter(peer, 'open breakout rooms');
    const rooms = this.cm.open(
      peer.meetingId,
      payloads.map((p) => p.title),
    );
    peer.send(ROOM.createConnectedRooms, id, 'socket.room.CreateConnectedRoomsResponse', { payloads: rooms.map((r) => ({ id: r.id, title: r.title ?? '' })) });
  }

  /** connectedMeetings.deleteMeetings(ids): whoever is still in a room goes back to the parent first. */
  private close(peer: Peer, id: string, payload: Uint8Array): void {
    const { payloads } = decodeAs<{ payloads: { id?: string }[] }>('socket.room.DisableConnectedRoomsRequest', payload);
    this.mayAlter(peer, 'close breakout rooms');
    const closed = this.cm.close(
      peer.meetingId,
      payloads.map((p) => p.id ?? ''),
    );
    peer.send(ROOM.deleteConnectedRooms, id, 'socket.room.DisableConnectedRoomsResponse', {
      payloads: closed.map((r) => ({ id: r.id, title: r.title ?? '', status: CLOSED })),
    });
  }

  /**
   * connectedMeetings.moveParticipants(source, destination, ids) and its custom-preset twin. A
   * host (can_alter_connected_meetings) moves anyone of the family; anyone else moves only
   * themselves, to the parent with can_switch_to_parent_meeting, to a room with
   * can_switch_connected_meetings (the checks the SDK makes before it asks), and never with a
   * preset of their choosing.
   */
  private move(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ source_meeting_id?: string; destination_meeting_id?: string; participants: { id?: string; preset_id?: string }[] }>(
      'socket.room.MovePeersBetweenRoomsRequest',
      payload,
    );
    const { preset, permissions } = this.permissions(peer, 'move participants');
    const people = request.participants.map((p) => ({ participantId: p.id ?? '', ...(p.preset_id ? { presetId: p.preset_id } : {}) }));
    const destination = request.destination_meeting_id ?? '';
    if (!permissions?.can_alter_connected_meetings) {
      const flag = (name: string) => `permissions.connected_meetings.${name} is false`;
      if (people.length !== 1 || people[0]!.participantId !== peer.participantId)
        throw new Unserved(`The preset ${preset} may not move other participants (${flag('can_alter_connected_meetings')})`);
      if (people[0]!.presetId !== undefined) throw new Unserved(`The preset ${preset} may not choose a preset (${flag('can_alter_connected_meetings')})`);
      const toParent = destination === this.cm.family(peer.meetingId).parent.id;
      if (toParent && !permissions?.can_switch_to_parent_meeting)
        throw new Unserved(`The preset ${preset} may not switch to the parent meeting (${flag('can_switch_to_parent_meeting')})`);
      if (!toParent && !permissions?.can_switch_connected_meetings)
        throw new Unserved(`The preset ${preset} may not switch to a breakout room (${flag('can_switch_connected_meetings')})`);
    }
    const transfers = this.cm.move(peer.meetingId, request.source_meeting_id ?? '', destination, people);
    peer.send(ROOM.movePeers, id, 'socket.room.MovePeersBetweenRoomsResponse', {
      payloads: transfers.map((t) => ({ meeting_id: t.to.meetingId, custom_participant_id: t.to.customParticipantId })),
    });
  }

  // --- what the pages hear ------------------------------------------------------------------------

  /** The family of a meeting as the SDK reads it: the parent and the open rooms, each with who is in it now. */
  private dump(meetingId: string, members = true): ProtoObject {
    const { parent, rooms } = this.cm.family(meetingId);
    const view = (m: Meeting) => ({
      id: m.id,
      title: m.title ?? '',
      // Participant ids: what the SDK's moveParticipants takes (its own is self.userId).
      participants: (members ? this.cm.present(m) : []).map((p) => ({
        id: p.id,
        display_name: p.name ?? 'Participant',
        custom_participant_id: p.customParticipantId,
        preset_id: p.presetId,
        ...(p.picture ? { display_picture_url: p.picture } : {}),
      })),
    });
    return { parent_meeting: view(parent), meetings: rooms.map(view) };
  }

  /**
   * The page hears where to go, with a participant token for the same person there, after a round
   * trip (a ping it answers): whatever it asked before it read the ping is answered first, so it
   * reads those answers, and sends what they lead to, before it reads its transfer. The SDK leaves
   * the meeting on a transfer and drops what it still waits for: the kits' Close Breakout, from a
   * host inside a room, moves the host back and then, once the SDK's own moves of the rooms'
   * participants are answered, asks to close the rooms; a transfer read first would lose that.
   */
  private async transfer(pages: Peer[], destination: Meeting, participantId: string): Promise<void> {
    try {
      const token = await this.state.deps.participants.newToken(destination.orgId, destination.id, participantId);
      await Promise.all(
        pages.map(async (page) => {
          if ((await page.roundTrip()) && !page.gone)
            page.send(ROOM.transferPeer, this.state.newId(), 'socket.room.TransferPeer', { meeting_id: destination.id, auth_token: token });
        }),
      );
    } catch (err) {
      this.state.deps.logger.info({ err: (err as Error).message, meeting: destination.id }, 'SDK page could not be transferred');
    }
  }

  private refresh(parentId: string): void {
    this.staleFamilies.add(parentId);
    this.later(() => undefined);
  }

  /** Runs a push once the request being served is answered (or at once after a domain change from elsewhere, in the same turn). */
  private later(push: () => void): void {
    this.pushes.push(push);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    for (const push of this.pushes.splice(0)) push();
    for (const parentId of [...this.staleFamilies]) {
      this.staleFamilies.delete(parentId);
      let body: ProtoObject;
      let pages: Peer[];
      try {
        body = this.dump(parentId);
        pages = this.familyPages(parentId);
      } catch {
        continue; // The meeting is gone (its organization was reset): nobody to tell.
      }
      for (const page of pages) page.send(ROOM.getConnectedRoomsDump, this.state.newId(), 'socket.room.GetConnectedRoomsDumpResponse', body);
    }
  }

  private familyPages(meetingId: string): Peer[] {
    const { parent, rooms } = this.cm.family(meetingId);
    return [parent, ...rooms].flatMap((m) => this.joinedPages(m.id));
  }

  private joinedPages(meetingId: string): Peer[] {
    return [...this.state.pages(meetingId)].filter((p) => p.roomJoined && !p.gone);
  }

  // --- who may ------------------------------------------------------------------------------------

  private get cm() {
    return this.state.deps.connectedMeetings;
  }

  private permissions(peer: Peer, what: string): { preset: string; permissions: ConnectedMeetingsPermissions | undefined } {
    if (!peer.roomJoined) throw new Unserved(`Join the meeting before you ${what}`);
    const preset = this.state.deps.participants.presetById(peer.claims.orgId, this.state.participantOf(peer).presetId);
    return { preset: preset?.name ?? '(none)', permissions: preset?.permissions.connected_meetings };
  }

  private mayAlter(peer: Peer, what: string): void {
    const { preset, permissions } = this.permissions(peer, what);
    if (!permissions?.can_alter_connected_meetings)
      throw new Unserved(`The preset ${preset} may not ${what} (permissions.connected_meetings.can_alter_connected_meetings is false)`);
  }

  onReset(): void {
    this.staleFamilies.clear();
    this.pushes.length = 0;
  }
}
