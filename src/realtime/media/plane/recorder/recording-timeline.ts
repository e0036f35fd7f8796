// A recording's own timeline: its recorded time, as the emulator's clock counts it (pauses left
// out), mapped onto the plane's real time. The emulator sends where the timeline stands and how
// fast it moves (the clock's time scale while recording; 0 on the manual clock, whose time moves
// only when told, and while paused); the plane reads the position at any real moment from that.
// A manual clock's jump is a step of the timeline: the span it jumps shows the room as it stood.
import type { RecorderClock } from '../../media-types.js';

export class RecordingTimeline {
  private base = 0;
  private rate = 0;
  private since = 0;
  private pausedNow = true;

  /** Where the timeline stands, received at real time `now`; answers that position. It never moves back. */
  set(clock: RecorderClock, now: number): number {
    this.base = Math.max(clock.recordedMs, this.at(now));
    this.rate = clock.paused ? 0 : clock.rate;
    this.since = now;
    this.pausedNow = clock.paused;
    return this.base;
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  /** The recorded ms at real time `now`. */
  at(now: number): number {
    return this.base + this.rate * Math.max(0, now - this.since);
  }
}
