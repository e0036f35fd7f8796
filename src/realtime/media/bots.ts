// A scripted participant's camera and microphone: the sample clip (fixtures/media/clip) played in
// a loop as real VP8 and Opus, published as two producers like a page's, so that a page sees the
// bot as a live video tile and hears it. The camera and microphone are turned on and off like a
// page's (a pause, told to every page); the clip is read once, on the first bot that publishes.
import type { ClipPlayer } from './clip-player.js';
import type { BotMediaWish, MediaKind } from './media-types.js';
import { loadClip, type Clip } from './clip.js';
import { Producer, type ProducerInfo } from './producer.js';
import { loadWerift } from './transport.js';

/** RTP names of the clip's streams before a viewer's section renames them (any values do). */
const STREAMS = { video: { ssrc: 0x0b07_0001, payloadType: 96 }, audio: { ssrc: 0x0b07_0002, payloadType: 111 } } as const;
const MIME = { video: 'video/VP8', audio: 'audio/opus' } as const;

export class BotPublisher {
  readonly producers = new Map<MediaKind, Producer>();
  private player: ClipPlayer | undefined;
  private starting: Promise<ClipPlayer> | undefined;
  private stopped = false;

  constructor(
    readonly meetingId: string,
    readonly orgId: string,
    readonly participantId: string,
    private readonly clip: () => Promise<Clip>,
    private readonly newId: () => string,
  ) {}

  /**
   * Turns the camera or microphone on or off. Answers the producers created (new to the pages) and
   * the ones paused or resumed (a toggle for the pages).
   */
  async apply(wish: BotMediaWish): Promise<{ created: Producer[]; toggled: Producer[] }> {
    const created: Producer[] = [];
    const toggled: Producer[] = [];
    for (const kind of ['audio', 'video'] as const) {
      const on = wish[kind];
      if (on === undefined) continue;
      const existing = this.producers.get(kind);
      if (existing) {
        if (existing.isPaused === !on) continue;
        existing.setPaused(!on);
        (await this.started()).setPaused(kind, !on);
        toggled.push(existing);
      } else if (on) {
        const player = await this.started();
        if (this.stopped) break;
        const info: ProducerInfo = {
          id: this.newId(),
          peerId: this.participantId,
          participantId: this.participantId,
          kind,
          screenShare: false,
          appData: JSON.stringify({ screenShare: false, e2ee: false }),
          mimeType: MIME[kind],
          transportId: '',
        };
        const producer = new Producer(info, false, {
          requestKeyframe: () => player.requestKeyframe(),
          close: () => this.onProducerClosed(kind),
        });
        this.producers.set(kind, producer);
        player.setStream(kind, STREAMS[kind]);
        player.setPaused(kind, false);
        created.push(producer);
      }
    }
    return { created, toggled };
  }

  /** Whether the bot's camera or microphone is on. */
  isOn(kind: MediaKind): boolean {
    const p = this.producers.get(kind);
    return p !== undefined && !p.isPaused;
  }

  /** Stops the clip and closes both producers. */
  stop(): void {
    this.stopped = true;
    for (const p of [...this.producers.values()]) p.close();
    this.player?.stop();
  }

  private onProducerClosed(kind: MediaKind): void {
    this.producers.delete(kind);
    this.player?.setPaused(kind, true);
    if (this.producers.size === 0) {
      this.stopped = true;
      this.player?.stop();
    }
  }

  private started(): Promise<ClipPlayer> {
    this.starting ??= Promise.all([import('./clip-player.js'), this.clip(), loadWerift()]).then(([{ ClipPlayer }, clip, werift]) => {
      const player = new ClipPlayer(clip, werift, (kind, packet) => this.producers.get(kind)?.deliver(packet));
      player.setPaused('audio', true);
      player.setPaused('video', true);
      player.start();
      this.player = player;
      if (this.stopped) player.stop();
      return player;
    });
    return this.starting;
  }
}

/** The clip, read from disk on first use and kept (about 100 KB). */
export function clipOnce(): () => Promise<Clip> {
  let clip: Promise<Clip> | undefined;
  return () => (clip ??= loadClip());
}
