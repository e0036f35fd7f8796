// What the media plane's composite of each meeting shows: who is in it and what they show (the
// media room's scene), told to the plane whenever that changes — a join or a leave, a camera,
// microphone or screen share, a pin, the stage — while some output of the meeting's composite needs
// it (a recording, a livestream of the room). Told once per turn however many things changed, and
// only when it did change.
import type { DomainEvent } from '../../domain/events.js';
import type { HostControlsFeature } from '../features/host-controls.js';
import type { RoomFeature } from '../room-state.js';
import type { MediaRoomFeature } from './media-room.js';
import type { RoomScene } from './media-types.js';

export class RoomScenesFeature implements RoomFeature {
  readonly handlers = [];
  /** Meeting → who needs its scene (a recording's id, a livestream's), and the scene last told. */
  private readonly watched = new Map<string, { by: Set<string>; told: string | undefined }>();
  private readonly queued = new Set<string>();

  constructor(
    private readonly media: MediaRoomFeature,
    hostControls: HostControlsFeature,
  ) {
    media.onTracksChanged((meetingId) => this.changed(meetingId));
    hostControls.onPinChanged((meetingId) => this.changed(meetingId));
  }

  /** The meeting as its composite shows it now (nobody, once the meeting is gone). */
  sceneOf(meetingId: string): RoomScene {
    try {
      return this.media.scene(meetingId);
    } catch {
      // The meeting is gone (its organization's reset): nobody is in it.
      return { meetingId, tiles: [], pinned: [] };
    }
  }

  /** `who` (an output of the meeting's composite) needs its scene told from now on; it is told again at once. */
  watch(meetingId: string, who: string): void {
    let w = this.watched.get(meetingId);
    if (!w) this.watched.set(meetingId, (w = { by: new Set(), told: undefined }));
    w.by.add(who);
    w.told = undefined;
    this.changed(meetingId);
  }

  unwatch(meetingId: string, who: string): void {
    const w = this.watched.get(meetingId);
    if (!w) return;
    w.by.delete(who);
    if (w.by.size === 0) this.watched.delete(meetingId);
  }

  onDomainEvent(e: DomainEvent): void {
    if ('meeting' in e && e.meeting) this.changed(e.meeting.id);
  }

  onPeerLeft(meetingId: string): void {
    this.changed(meetingId);
  }

  onRoomEmpty(meetingId: string): void {
    this.changed(meetingId);
  }

  onReset(): void {
    this.watched.clear();
  }

  private changed(meetingId: string): void {
    if (this.queued.has(meetingId) || !this.watched.has(meetingId)) return;
    this.queued.add(meetingId);
    queueMicrotask(() => {
      this.queued.delete(meetingId);
      const w = this.watched.get(meetingId);
      if (!w) return;
      const scene = this.sceneOf(meetingId);
      const text = JSON.stringify(scene);
      if (w.told === text) return;
      w.told = text;
      this.media.engine.setScene(scene);
    });
  }
}
