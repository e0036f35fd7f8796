// Session history → v2 wire shapes (snake_case, ISO times). Fields production leaves optional
// are left out when the emulator has no value for them (never sent as null).
import type { z } from 'zod';
import { toIso } from '../../core/clock.js';
import { nameBasedUuid } from '../../core/ids.js';
import type { DownloadLink } from '../../domain/events.js';
import type { Meeting, Participant, Session, SessionParticipant, SessionPoll } from '../../domain/models.js';
import { firstJoin, isLive, lastLeave, minutesOf, participantMs, pollResults, presentIn, sessionMinutes } from '../../domain/sessions/session-rules.js';
import type {
  chatLinkSchema,
  kickedParticipantSchema,
  PeerFilter,
  peerEventSchema,
  peerReportSchema,
  pollSchema,
  sessionParticipantDetailsSchema,
  sessionParticipantListItemSchema,
  sessionSchema,
  summaryLinkSchema,
  transcriptLinkSchema,
} from './sessions.schemas.js';

/**
 * A session as the v2 API shows it; `breakoutRooms` (include_breakout_rooms=true) are the sessions
 * of its breakout rooms, each shown the same way, with the room it belongs to.
 */
export function sessionDto(
  s: Session,
  meeting: Meeting,
  now: number,
  breakoutRooms?: readonly { session: Session; meeting: Meeting }[],
): z.infer<ReturnType<typeof sessionSchema>> {
  return {
    id: s.id,
    associated_id: s.meetingId,
    meeting_display_name: meeting.title ?? '',
    type: 'meeting',
    status: isLive(s) ? 'LIVE' : 'ENDED',
    live_participants: presentIn(s).length,
    max_concurrent_participants: s.maxConcurrent,
    minutes_consumed: sessionMinutes(s, now),
    organization_id: s.orgId,
    started_at: toIso(s.startedAt),
    created_at: toIso(s.startedAt),
    updated_at: toIso(s.updatedAt),
    ...(s.endedAt === null ? {} : { ended_at: toIso(s.endedAt) }),
    ...(breakoutRooms ? { breakout_rooms: breakoutRooms.map((r) => sessionDto(r.session, r.meeting, now)) } : {}),
  };
}

/** Peer events have no ids of their own in the history: name-based ones, the same on every read. */
const PEER_EVENT_NAMESPACE = '6a3e9d1c-52b4-4f0e-8b7a-1c2d3e4f5a6b';

function peerEvents(s: Session, p: SessionParticipant): z.infer<ReturnType<typeof peerEventSchema>>[] {
  const event = (name: 'PEER_JOINING' | 'PEER_LEAVING', at: number, i: number) => ({
    id: nameBasedUuid(PEER_EVENT_NAMESPACE, `${s.id}:${p.participantId}:${i}:${name}`),
    peer_id: p.participantId,
    event_name: name,
    created_at: toIso(at),
    updated_at: toIso(at),
  });
  return p.spans.flatMap((span, i) => [event('PEER_JOINING', span.joinedAt, i), ...(span.leftAt === null ? [] : [event('PEER_LEAVING', span.leftAt, i)])]);
}

function listFields(p: SessionParticipant, now: number) {
  const left = lastLeave(p);
  return {
    id: p.participantId,
    user_id: p.participantId,
    custom_participant_id: p.customParticipantId,
    ...(p.name === null ? {} : { display_name: p.name }),
    joined_at: toIso(firstJoin(p)),
    ...(left === null ? {} : { left_at: toIso(left) }),
    duration: minutesOf(participantMs(p, now)),
    created_at: toIso(firstJoin(p)),
    updated_at: toIso(p.updatedAt),
  };
}

export function sessionParticipantDto(
  s: Session,
  p: SessionParticipant,
  now: number,
  withPeerEvents: boolean,
): z.infer<ReturnType<typeof sessionParticipantListItemSchema>> {
  return { ...listFields(p, now), preset_name: p.presetName, ...(withPeerEvents ? { peer_events: peerEvents(s, p) } : {}) };
}

/**
 * The peer's call statistics, as far as the emulator knows them: the events are its joins,
 * the host's mute and its leaves; it carries no media, so devices, network and quality are empty.
 */
function statsFor(p: SessionParticipant, filters: readonly PeerFilter[] | undefined) {
  const wanted = (f: PeerFilter) => filters === undefined || filters.includes(f);
  const events = [
    ...p.spans.flatMap((span) => [
      { type: 'call_join', timestamp: span.joinedAt },
      ...(span.leftAt === null ? [] : [{ type: 'call_leave', timestamp: span.leftAt }]),
    ]),
    ...(p.mutedAt === null ? [] : [{ type: 'audio_off', timestamp: p.mutedAt }]),
  ]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((e) => ({ type: e.type, timestamp: toIso(e.timestamp) }));
  return {
    peer_stats: {
      ...(wanted('events') ? { events } : {}),
      ...(wanted('device_info') ? { device_info: {} } : {}),
      ...(wanted('ip_information') ? { ip_information: {} } : {}),
      ...(wanted('precall_network_information') ? { precall_network_information: {} } : {}),
    },
    withQuality: wanted('quality_stats'),
  };
}

export function sessionParticipantDetailsDto(
  s: Session,
  p: SessionParticipant,
  now: number,
  opts: { filters?: PeerFilter[]; withPeerEvents: boolean },
): z.infer<ReturnType<typeof sessionParticipantDetailsSchema>> {
  const { peer_stats, withQuality } = statsFor(p, opts.filters);
  return { ...sessionParticipantDto(s, p, now, opts.withPeerEvents), peer_stats, ...(withQuality ? { quality_stats: [] } : {}) };
}

export function peerReportDto(p: SessionParticipant, now: number, filters?: PeerFilter[]): z.infer<ReturnType<typeof peerReportSchema>> {
  const { peer_stats, withQuality } = statsFor(p, filters);
  return { ...listFields(p, now), role: p.presetName, peer_stats, ...(withQuality ? { quality_stats: {} } : {}) };
}

export function kickedParticipantDto(p: Participant): z.infer<ReturnType<typeof kickedParticipantSchema>> {
  return {
    id: p.id,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
    ...(p.name === null ? {} : { name: p.name }),
    ...(p.picture === null ? {} : { picture: p.picture }),
  };
}

/** A poll as production's Poll schema shows it: each option's count and voters (id, name), and who voted. */
export function pollDto(poll: SessionPoll): z.infer<ReturnType<typeof pollSchema>> {
  const results = pollResults(poll);
  return {
    id: poll.id,
    question: poll.question,
    options: results.options.map((o) => ({
      text: o.text,
      count: o.count,
      votes: o.votes.map((v) => ({ id: v.participantId, name: v.name ?? 'Participant' })),
    })),
    anonymous: poll.anonymous,
    hide_votes: poll.hideVotes,
    created_by: poll.createdBy,
    voted: results.voted,
  };
}

export const chatLinkDto = (l: DownloadLink): z.infer<ReturnType<typeof chatLinkSchema>> => ({
  chat_download_url: l.url,
  chat_download_url_expiry: toIso(l.expiresAt),
});

export const transcriptLinkDto = (sessionId: string, l: DownloadLink): z.infer<ReturnType<typeof transcriptLinkSchema>> => ({
  sessionId,
  transcript_download_url: l.url,
  transcript_download_url_expiry: toIso(l.expiresAt),
});

export const summaryLinkDto = (sessionId: string, l: DownloadLink): z.infer<ReturnType<typeof summaryLinkSchema>> => ({
  sessionId,
  summaryDownloadUrl: l.url,
  summaryDownloadUrlExpiry: toIso(l.expiresAt),
});
