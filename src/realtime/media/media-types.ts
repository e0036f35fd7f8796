// The media plane's words that the rest of the emulator (and the package's public types) use, and
// that both sides of the plane's door (engine.ts) share. Kept apart from the modules that load
// werift (plane/), so that naming them never pulls in werift's types.

export type MediaKind = 'video' | 'audio';

/** A page's transport: the one it publishes on, or the one it receives on. */
export type Direction = 'send' | 'recv';

/** What the pages are told of a producer (media.ProducerState, and the consume answer). */
export interface ProducerInfo {
  id: string;
  /** The publisher's peer id (a page's, or a scripted participant's participant id). */
  peerId: string;
  participantId: string;
  kind: MediaKind;
  screenShare: boolean;
  /** The SDK's own JSON, given back verbatim to the consumers. */
  appData: string;
  mimeType: string;
  transportId: string;
}

/** A published track's name and state, as both the media room's ledger and the media plane keep it. */
export abstract class PublishedTrack {
  protected closed = false;

  constructor(
    readonly info: ProducerInfo,
    protected paused: boolean,
  ) {}

  get id(): string {
    return this.info.id;
  }

  get kind(): MediaKind {
    return this.info.kind;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** What the media room holds open: transports, published tracks, received tracks. */
export interface MediaCounts {
  transports: number;
  producers: number;
  consumers: number;
}

/** The camera and microphone a bot is asked to have on; an absent one is left as it is. */
export interface BotMediaWish {
  audio?: boolean;
  video?: boolean;
}
