// The meeting's livestream as the pages see it: LIVE with its playback URL, then stopped or
// errored, told to every page whoever drove it.
import type { DomainEvent } from '../../domain/events.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM } = SDK_EVENTS;

export class LivestreamFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'livestream.statusChanged') return;
    const { livestream, meeting } = e;
    if (!meeting) return;
    const event =
      livestream.state === 'LIVE'
        ? ROOM.startedLivestream
        : livestream.state === 'ERRORED'
          ? ROOM.erroredLivestream
          : e.previous === 'LIVE'
            ? ROOM.stoppedLivestream
            : null;
    if (event === null) return;
    this.state.tell(meeting.id, event, 'socket.livestreaming.LiveStreamingEvent', {
      livestream_id: livestream.id,
      name: livestream.name ?? '',
      meeting_id: meeting.id,
      org_id: livestream.orgId,
      room_name: meeting.id,
      ...(livestream.state === 'LIVE' ? { playback_url: this.state.deps.playbackUrl(livestream.id) } : {}),
    });
  }
}
