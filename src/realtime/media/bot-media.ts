// A scripted participant's camera and microphone as the media room keeps them: one producer per
// kind, published on the engine from the sample clip (plane/bot-clip.ts) and turned on and off like a page's
// (a pause, told to every page).
import type { MediaEngine } from './engine.js';
import type { BotMediaWish, MediaKind } from './media-types.js';
import { ProducerEntry } from './ledger.js';

/** What the clip's tracks are (plane/bot-clip.ts plays them). */
const BOT_MIME = { video: 'video/VP8', audio: 'audio/opus' } as const;

export class BotMedia {
  readonly producers = new Map<MediaKind, ProducerEntry>();
  private stopped = false;

  constructor(
    readonly meetingId: string,
    readonly orgId: string,
    readonly participantId: string,
    private readonly engine: MediaEngine,
    private readonly newId: () => string,
  ) {}

  /** The engine's name for the bot's player. */
  get key(): string {
    return `${this.meetingId}\u0000${this.participantId}`;
  }

  /**
   * Turns the camera or microphone on or off. Answers the producers created (new to the pages) and
   * the ones paused or resumed (a toggle for the pages).
   */
  async apply(wish: BotMediaWish): Promise<{ created: ProducerEntry[]; toggled: ProducerEntry[] }> {
    const created: ProducerEntry[] = [];
    const toggled: ProducerEntry[] = [];
    for (const kind of ['audio', 'video'] as const) {
      const on = wish[kind];
      if (on === undefined || this.stopped) continue;
      const existing = this.producers.get(kind);
      if (existing) {
        if (existing.isPaused === !on) continue;
        existing.setPaused(!on);
        toggled.push(existing);
      } else if (on) {
        const producer = new ProducerEntry(
          {
            id: this.newId(),
            peerId: this.participantId,
            participantId: this.participantId,
            kind,
            screenShare: false,
            appData: JSON.stringify({ screenShare: false, e2ee: false }),
            mimeType: BOT_MIME[kind],
            transportId: '',
          },
          false,
          this.engine,
        );
        await this.engine.botTrack(this.key, producer.info);
        // Stopped while the clip was loaded: what it published goes at once.
        if (this.stopped) {
          producer.close();
          break;
        }
        this.producers.set(kind, producer);
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

  /** Closes both producers (the engine stops the clip with the last). */
  stop(): void {
    this.stopped = true;
    for (const p of this.producers.values()) p.close();
    this.producers.clear();
  }
}
