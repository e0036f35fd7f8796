// The emulator's state as the SDK's protobuf messages: peers, chat messages, polls. Pure
// functions of the domain's records; the rooms decide who sees what.
import type { StageStatus } from '../domain/meetings/stage-rules.js';
import type { Participant, SessionPoll } from '../domain/models.js';
import type { ProtoObject } from './protocol/codec.js';

export const CHAT_TEXT = 0;
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

export function pollView(p: SessionPoll): ProtoObject {
  return {
    poll_id: p.id,
    created_by: p.createdBy,
    created_by_user_id: p.createdBy,
    question: p.question,
    options: p.options.map((text) => ({ text, count: 0, votes: [] })),
    hide_votes: p.hideVotes,
    anonymous: p.anonymous,
    votes: [],
  };
}

export function chatView(m: { chatId: string; peerId: string; userId: string; name: string | null; text: string; at: number }): ProtoObject {
  return {
    chat_id: m.chatId,
    peer_id: m.peerId,
    user_id: m.userId,
    display_name: m.name ?? 'Participant',
    pinned: false,
    is_edited: false,
    payload_type: CHAT_TEXT,
    payload: m.text,
    target_user_ids: [],
    created_at: Math.floor(m.at / 1000),
    created_at_ms: m.at,
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
