// The meeting's recording as the pages see it: started (or resumed), paused and stopped, told to
// every page whoever drove the recording (the REST API, record_on_start, the clock).
import type { DomainEvent } from '../../domain/events.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { BROWSER_RECORDING } from '../room-views.js';

const { room: ROOM } = SDK_EVENTS;

export class RecordingFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'recording.statusChanged') return;
    const { status } = e.recording;
    const event =
      status === 'RECORDING'
        ? ROOM.recordingStarted
        : status === 'PAUSED'
          ? ROOM.recordingPaused
          : e.previous === 'RECORDING' || e.previous === 'PAUSED'
            ? ROOM.recordingStopped
            : null;
    if (event === null) return;
    this.state.tell(e.meeting.id, event, 'socket.recording.RecordingEvent', { recording_id: e.recording.id, recording_type: BROWSER_RECORDING });
  }
}
