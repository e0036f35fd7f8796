// The dispatch table of the signalling socket: every feature of a room, each in a module of its
// own, and the events each answers. A new feature is a new module and a line here.
import { BreakoutRoomsFeature } from './features/breakout-rooms.js';
import { BroadcastFeature } from './features/broadcast.js';
import { ChatFeature } from './features/chat.js';
import { ChatChannelsFeature } from './features/chat-channels.js';
import { HostControlsFeature } from './features/host-controls.js';
import { LivestreamFeature } from './features/livestream.js';
import { PluginStoresFeature } from './features/plugin-stores.js';
import { PollsFeature } from './features/polls.js';
import { PresenceFeature } from './features/presence.js';
import { RecordingFeature } from './features/recording.js';
import { StageFeature } from './features/stage.js';
import { TranscriptsFeature } from './features/transcripts.js';
import { WaitingRoomFeature } from './features/waiting-room.js';
import { LocalMediaEngine } from './media/plane/local-engine.js';
import { MediaRoomFeature } from './media/media-room.js';
import { ProcessMediaEngine } from './media/process-engine.js';
import { RoomRecordingsFeature } from './media/room-recordings.js';
import { RoomScenesFeature } from './media/room-scenes.js';
import { RoomLivestreamsFeature } from './media/room-livestreams.js';
import type { Peer } from './peer.js';
import type { Handler, RoomFeature, RoomState } from './room-state.js';

/** What a feature may use of the rooms besides their state. */
export interface RoomControls {
  /** Closes a page's socket and forgets it. */
  dropPage(peer: Peer, code: number, reason: string): void;
  /** Tells every feature that a peer left the meeting. */
  peerLeft(meetingId: string, peerId: string): void;
  /** Real time (the pace of the active speaker). */
  realNow(): number;
}

export interface RoomFeatures {
  presence: PresenceFeature;
  chat: ChatFeature;
  chatChannels: ChatChannelsFeature;
  broadcast: BroadcastFeature;
  polls: PollsFeature;
  pluginStores: PluginStoresFeature;
  recording: RecordingFeature;
  livestream: LivestreamFeature;
  transcripts: TranscriptsFeature;
  hostControls: HostControlsFeature;
  waitingRoom: WaitingRoomFeature;
  stage: StageFeature;
  breakoutRooms: BreakoutRoomsFeature;
  media: MediaRoomFeature;
  scenes: RoomScenesFeature;
  recordings: RoomRecordingsFeature;
  livestreams: RoomLivestreamsFeature;
}

export function roomFeatures(state: RoomState, controls: RoomControls): RoomFeatures {
  const hostControls = new HostControlsFeature(state);
  const waitingRoom = new WaitingRoomFeature(state);
  const media = new MediaRoomFeature(state, {
    enabled: state.deps.media === 'on',
    now: controls.realNow,
    pinned: (meetingId) => hostControls.pinnedIn(meetingId),
    engine:
      state.deps.mediaPlane === 'process'
        ? new ProcessMediaEngine(state.deps.logger, state.deps.mediaNetwork, state.deps.mediaPlaneIdleMs)
        : new LocalMediaEngine(state.deps.logger, state.deps.mediaNetwork),
  });
  const scenes = new RoomScenesFeature(media, hostControls);
  return {
    presence: new PresenceFeature(state, controls, waitingRoom),
    chat: new ChatFeature(state),
    chatChannels: new ChatChannelsFeature(state),
    broadcast: new BroadcastFeature(state),
    polls: new PollsFeature(state),
    pluginStores: new PluginStoresFeature(state),
    recording: new RecordingFeature(state),
    livestream: new LivestreamFeature(state),
    transcripts: new TranscriptsFeature(state),
    hostControls,
    waitingRoom,
    stage: new StageFeature(state),
    breakoutRooms: new BreakoutRoomsFeature(state),
    media,
    // After the media room: what the composite of each meeting shows follows what the media room holds.
    scenes,
    recordings: new RoomRecordingsFeature(state, media, scenes),
    // The livestreams' pictures: the room's composite (as the recordings'), or an encoder's stream.
    livestreams: new RoomLivestreamsFeature(state, media, scenes, state.deps.livestreamMedia),
  };
}

/** Every event the features answer → its handler. An event claimed twice is a programming error. */
export function dispatchTable(features: Iterable<RoomFeature>): ReadonlyMap<number, Handler> {
  const table = new Map<number, Handler>();
  for (const feature of features)
    for (const [event, handler] of feature.handlers) {
      if (table.has(event)) throw new Error(`Two room features answer event ${event}`);
      table.set(event, handler);
    }
  return table;
}
