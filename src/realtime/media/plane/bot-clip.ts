// A scripted participant's camera and microphone on the media plane: the sample clip
// (fixtures/media/clip) played in a loop as real VP8 and Opus, each kind published as a producer
// like a page's track, so that a page sees the bot as a live video tile and hears it. A paused
// producer pauses its kind of the clip; the clip is read once, on the first bot that publishes, and
// a bot's player stops with its last track.
import { Unserved } from '../../unserved.js';
import type { ClipPlayer } from './clip-player.js';
import type { LinkConditions, MediaKind, ProducerInfo } from '../media-types.js';
import { loadClip, type Clip } from './clip.js';
import { TransportLink } from './link-shaper.js';
import { Producer } from './producer.js';
import { loadWerift } from './transport.js';

/** RTP names of the clip's streams before a viewer's section renames them (any values do). */
const STREAMS = { video: { ssrc: 0x0b07_0001, payloadType: 96 }, audio: { ssrc: 0x0b07_0002, payloadType: 111 } } as const;

/** One bot's player and the tracks it feeds. */
export class BotClip {
  private readonly producers = new Map<MediaKind, Producer>();
  private player: ClipPlayer | undefined;
  private starting: Promise<ClipPlayer> | undefined;
  private stopped = false;
  /** The network between the bot and the plane (network scenarios): its clip's packets pass it on their way to the viewers. */
  private readonly link: TransportLink;

  constructor(
    private readonly clip: () => Promise<Clip>,
    /** Told when the bot's last track closed (its player has stopped). */
    private readonly onEmpty: () => void,
    /** Seeds its network's losses. */
    seed = 'bot',
  ) {
    this.link = new TransportLink(seed);
  }

  /** The network its clip goes through (what the bot publishes is its `up`; a cut path stays cut until lifted). */
  setLink(link: LinkConditions | null): void {
    this.link.set(link && { ...link, cut: link.cut === 'none' ? 'none' : 'all' });
  }

  /** Publishes one kind of the clip, playing, as the producer `info` names. */
  async track(info: ProducerInfo): Promise<Producer> {
    const kind = info.kind;
    const player = await this.started();
    if (this.stopped) throw new Unserved('The bot left meanwhile');
    const producer = new Producer(info, false, {
      requestKeyframe: () => player.requestKeyframe(),
      paused: (paused) => player.setPaused(kind, paused),
      close: () => this.onProducerClosed(kind),
    });
    this.producers.set(kind, producer);
    player.setStream(kind, STREAMS[kind]);
    player.setPaused(kind, false);
    return producer;
  }

  /** Stops the clip and closes its tracks. */
  stop(): void {
    this.stopped = true;
    for (const p of [...this.producers.values()]) p.close();
    this.player?.stop();
    this.link.close();
  }

  private onProducerClosed(kind: MediaKind): void {
    this.producers.delete(kind);
    this.player?.setPaused(kind, true);
    if (this.producers.size === 0) {
      this.stopped = true;
      this.player?.stop();
      this.link.close();
      this.onEmpty();
    }
  }

  private started(): Promise<ClipPlayer> {
    this.starting ??= Promise.all([import('./clip-player.js'), this.clip(), loadWerift()]).then(([{ ClipPlayer }, clip, werift]) => {
      const player = new ClipPlayer(clip, werift, (kind, packet) => this.link.inbound(packet.serializeSize, () => this.producers.get(kind)?.deliver(packet)));
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
