// The media plane's words that the rest of the emulator (and the package's public types) use. Kept
// apart from the modules that load werift, so that naming them never pulls in werift's types.

export type MediaKind = 'video' | 'audio';

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
