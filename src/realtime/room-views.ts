// The emulator's state as the SDK's protobuf messages: peers, chat messages, polls. Pure
// functions of the domain's records; the rooms decide who sees what.
import type { StageStatus } from '../domain/meetings/stage-rules.js';
import type { Participant, SessionChatMessage, SessionPoll } from '../domain/models.js';
import { CHAT_PAYLOAD_TYPES } from '../domain/sessions/chat-rules.js';
import { pollResults } from '../domain/sessions/session-rules.js';
import type { ProtoObject } from './protocol/codec.js';

/** socket.room.StageType of each stage status. */
export const STAGE_TYPE: Record<StageStatus, number> = {
  ON_STAGE: 1,
  ACCEPTED_TO_JOIN_STAGE: 2,
  REQUESTED_TO_JOIN_STAGE: 3,
  OFF_STAGE: 4,
};
/** common.RecordingType: the emulator's recordings are composite browser recordings. */
export const BROWSER_RECORDING = 0;

export interface PeerView {
  peer_id: string;
  display_name: string;
  custom_participant_id: string;
  preset_id: string;
  display_picture_url?: string;
}

/** A peer as a participant of the media room (media.edge.RoomParticipants), with the tracks it publishes (media.ProducerState). */
export function mediaView(peer: PeerView & ProtoObject, producerStates: ProtoObject[] = []): ProtoObject {
  return { peer_id: peer.peer_id, display_name: peer.display_name, user_id: peer.user_id, producer_states: producerStates };
}

/**
 * A poll as the page of `viewer` (a participant id) sees it: who started it (`creator`, the name
 * the kits show as "Poll by …"; their id beside it), each option's count and voters, and who voted. A poll that hides its votes shows them to a page only once its participant voted
 * (production: "if votes on an option are visible before a person votes"): before, no count and
 * no voters.
 */
export function pollView(p: SessionPoll, viewer: string | undefined, creator: string): ProtoObject {
  const results = pollResults(p);
  const hidden = p.hideVotes && viewer !== undefined && !results.voted.includes(viewer);
  return {
    poll_id: p.id,
    created_by: creator,
    created_by_user_id: p.createdBy,
    question: p.question,
    options: results.options.map((o) =>
      hidden
        ? { text: o.text, votes: [] }
        : { text: o.text, count: o.count, votes: o.votes.map((v) => ({ user_id: v.participantId, name: v.name ?? 'Participant' })) },
    ),
    hide_votes: p.hideVotes,
    anonymous: p.anonymous,
    votes: results.voted,
  };
}

/** A chat message (socket.chat.ChatMessage) as its sender's peer id `peerId` sent it. */
export function chatView(m: SessionChatMessage, peerId: string): ProtoObject {
  return {
    chat_id: m.id,
    peer_id: peerId,
    user_id: m.participantId,
    display_name: m.displayName ?? 'Participant',
    pinned: m.pinned,
    is_edited: m.editedAt !== null,
    payload_type: CHAT_PAYLOAD_TYPES.indexOf(m.payloadType),
    payload: m.payload,
    // A private message's participants, its sender among them: the kits group a conversation by them.
    target_user_ids: m.targets,
    created_at: Math.floor(m.createdAt / 1000),
    created_at_ms: m.createdAt,
    ...(m.channelId === null ? {} : { channel_id: m.channelId, channel_index: String(m.channelIndex) }),
  };
}

/** A participant as a peer of the socket room (socket.room.Peer), under the peer id it has in this room, where it stands on the stage. */
export function peerView(participant: Participant, peerId: string, stage: StageStatus): ProtoObject & PeerView {
  return {
    peer_id: peerId,
    user_id: participant.id,
    display_name: participant.name ?? 'Participant',
    custom_participant_id: participant.customParticipantId,
    preset_id: participant.presetId,
    // The SDK cannot encode a null picture: absent, not null.
    ...(participant.picture ? { display_picture_url: participant.picture } : {}),
    waitlisted: false,
    // The SDK shares a camera or microphone only from the stage, and lists a peer only while on it.
    stage_type: STAGE_TYPE[stage],
    // "NONE": an empty recorder type makes the SDK hide the peer as a recorder.
    flags: { preset_name: participant.presetName, recorder_type: 'NONE', hidden_participant: false },
  };
}
