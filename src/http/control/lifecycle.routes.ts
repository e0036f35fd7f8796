// Driving lifecycles from a test: forced transitions of recordings and livestreams (through the
// same pure tables the API uses: a move the table forbids is 409), and scripted participants
// joining and leaving meetings (sessions, meeting.started/ended, record_on_start, ...).
//
// The control API carries no credentials, so resources are found by id in any organization.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { isoOrNull, toIso } from '../../core/clock.js';
import type { Presence } from '../../domain/meetings/sessions.service.js';
import { RECORDING_STATUSES, type Meeting, type Participant } from '../../domain/models.js';
import { publishRefusal } from '../../domain/meetings/stage-rules.js';
import { errors } from '../../core/errors.js';
import type { Deps } from '../../container.js';
import { route } from '../route.js';
import { livestreamDto, recordingDto } from '../v2/mappers.js';
import { isoTime, livestreamSchema, recordingSchema } from '../v2/schemas.js';
import { waitingRoomDto, waitingRoomSchema } from './waiting-room.routes.js';

const TAG = 'Control: lifecycles';

function mediaOn(mode: 'on' | 'off'): void {
  if (mode === 'off') throw errors.conflict('Media is off on this emulator (--media off): start it with --media on for bots that publish', 'MEDIA_OFF');
}

/** Publishes or pauses a joined scripted participant's clip; what the preset forbids, or off the stage, is refused. */
async function botMedia(deps: Deps, meetingId: string, participantId: string, wish: z.output<ReturnType<typeof botMediaBody>>) {
  const present = deps.services.sessions.presence(meetingId);
  const participant = present.present.find((p) => p.id === participantId);
  if (!participant) {
    // Someone the meeting does not have (another meeting's participant, an unknown id) is not found
    // (404); only the meeting's own participant who has not joined is a conflict.
    deps.services.participants.get(present.meeting.orgId, meetingId, participantId);
    throw errors.conflict(`Participant ${participantId} is not in meeting ${meetingId}; join them first`);
  }
  mayPublish(deps, present.meeting, participant, wish);
  return deps.signalling.botMedia(participant, wish);
}

/** Refuses (409) turning on what the participant's preset forbids, or what only the stage publishes while they are off it. */
function mayPublish(deps: Deps, meeting: Meeting, participant: Participant, wish: z.output<ReturnType<typeof botMediaBody>>): void {
  const preset = deps.services.participants.presetById(participant.orgId, participant.presetId);
  const status = deps.services.stage.statusOf(meeting, participant);
  for (const kind of ['audio', 'video'] as const) {
    const refusal = wish[kind] && preset ? publishRefusal(preset, kind, status) : undefined;
    if (refusal) throw errors.conflict(refusal);
  }
}

const STOP_REASONS = ['API_CALL', 'ALL_PEERS_LEFT', 'INTERNAL_ERROR'] as const;

export const forceRecordingBody = lazy(() =>
  z
    .strictObject({
      to: z.enum(RECORDING_STATUSES),
      reason: z
        .string()
        .min(1)
        .max(255)
        .optional()
        .meta({
          description: `to UPLOADING: the stop_reason.reason, one of ${STOP_REASONS.join(', ')} (default API_CALL). to ERRORED: a free-text cause. Not allowed otherwise.`,
        }),
    })
    .superRefine((b, ctx) => {
      if (b.reason === undefined) return;
      if (b.to === 'UPLOADING' && !(STOP_REASONS as readonly string[]).includes(b.reason)) {
        ctx.addIssue({ code: 'custom', path: ['reason'], message: `must be one of [${STOP_REASONS.join(', ')}] when "to" is UPLOADING` });
      } else if (b.to !== 'UPLOADING' && b.to !== 'ERRORED') {
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is only allowed when "to" is UPLOADING or ERRORED' });
      }
    }),
);

export const forceLivestreamBody = lazy(() =>
  z.strictObject({
    to: z
      .enum(['OFFLINE', 'LIVE', 'IDLE', 'ERRORED'])
      .meta({ description: 'OFFLINE stops the livestream (as active-livestream/stop does); IDLE ends the ingest (the encoder disconnects)' }),
  }),
);

export const presenceSchema = lazy(() =>
  z.object({
    meeting_id: z.uuid(),
    session: z
      .object({ id: z.uuid(), started_at: isoTime(), ended_at: isoTime().nullable() })
      .nullable()
      .meta({ description: 'The current session, or the last one once it ended; null before anyone joined' }),
    participants: z
      .array(z.object({ id: z.uuid(), custom_participant_id: z.string(), name: z.string().nullable(), joined_at: isoTime() }))
      .meta({ description: 'Who is in the meeting now' }),
  }),
);

export function presenceDto(p: Presence): z.infer<ReturnType<typeof presenceSchema>> {
  return {
    meeting_id: p.meeting.id,
    session: p.session && { id: p.session.id, started_at: toIso(p.session.startedAt), ended_at: isoOrNull(p.session.endedAt) },
    participants: p.present.map((x) => ({ id: x.id, custom_participant_id: x.customParticipantId, name: x.name, joined_at: toIso(x.joinedAt!) })),
  };
}

const participantParams = lazy(() => z.object({ meeting_id: z.uuid(), participant_id: z.uuid() }));

/** A scripted participant's camera and microphone: the sample clip (a test pattern with a running counter, and a tone). */
export const botMediaBody = lazy(() =>
  z.strictObject({
    audio: z.boolean().optional().meta({ description: 'Microphone on (the tone) or off; absent: left as it is' }),
    video: z.boolean().optional().meta({ description: 'Camera on (the test pattern) or off; absent: left as it is' }),
  }),
);
const botMediaSchema = lazy(() => z.object({ audio: z.boolean(), video: z.boolean() }));
const joinBody = lazy(() =>
  z.strictObject({
    media: botMediaBody().optional().meta({ description: 'Publish the sample clip at once: the camera, the microphone or both' }),
  }),
);

const recorderTrack = lazy(() =>
  z
    .object({ producer_id: z.string(), decoded: z.number().int().meta({ description: 'Pictures (video) or samples per channel (sound) decoded so far' }) })
    .nullable(),
);

const recorderSchema = lazy(() =>
  z.object({
    recording_id: z.uuid(),
    status: z.enum(RECORDING_STATUSES),
    position_ms: z.number().meta({ description: "Where the recording's timeline has been written to, ms" }),
    tiles: z.array(
      z.object({
        peer_id: z.string(),
        name: z.string(),
        pinned: z.boolean().meta({ description: 'Pinned for everyone: the main area is theirs unless a screen is shared' }),
        camera: recorderTrack(),
        microphone: recorderTrack(),
        screen: recorderTrack(),
        screen_audio: recorderTrack(),
      }),
    ),
  }),
);

export const lifecycleRoutes = [
  route({
    method: 'post',
    path: '/_emulator/recordings/{id}/transition',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Force a recording to a status, through the recording transition table',
    description:
      'Legal moves: INVOKED → RECORDING | ERRORED; RECORDING → PAUSED | UPLOADING | ERRORED; PAUSED → RECORDING | UPLOADING | ERRORED; UPLOADING → UPLOADED | ERRORED. UPLOADED fills every field an automatic upload fills. Anything else is 409.',
    params: () => z.object({ id: z.uuid() }),
    body: forceRecordingBody,
    responses: {
      200: { description: 'The recording (v2 shape) after the move', schema: () => recordingSchema() },
      409: { description: 'The transition table forbids this move' },
    },
    handler: async ({ deps, params, body }) => {
      const { recordings } = deps.services;
      const r = recordings.locate(params.id);
      recordings.force(r.orgId, r.id, body.to, body.reason);
      // A move to UPLOADED waits, as an upload does, for the recording's files to be complete.
      await recordings.delivery.idle();
      return { status: 200, body: recordingDto(recordings.get(r.orgId, r.id)) };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/recordings/{id}/recorder',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "What a recording's recorder takes now: where its timeline got to, and each participant's tracks with how much of each it decoded",
    description:
      'While the recording is being made (RECORDING or PAUSED, with --recordings real and ffmpeg found). A test on the manual clock waits here until the tracks it wants in the file have pictures (`decoded` > 0), then advances the clock: the span it jumps shows the room as it stood. 404 when no recorder runs for it.',
    params: () => z.object({ id: z.uuid() }),
    responses: {
      200: { description: 'The recorder', schema: () => recorderSchema() },
      404: { description: 'No recording with that id, or no recorder runs for it now' },
    },
    handler: async ({ deps, params }) => {
      const r = deps.services.recordings.locate(params.id);
      const view = await deps.signalling.recorderView(r.id);
      if (!view)
        throw errors.notFoundMessage(
          `No recorder runs for recording ${r.id} (status ${r.status}, recordings ${deps.services.recordings.files.real ? 'real' : 'sample'})`,
        );
      const track = (t: { producerId: string; decoded: number } | null) => t && { producer_id: t.producerId, decoded: t.decoded };
      return {
        status: 200,
        body: {
          recording_id: r.id,
          status: r.status,
          position_ms: view.positionMs,
          tiles: view.tiles.map((t) => ({
            peer_id: t.peerId,
            name: t.name,
            pinned: t.pinned,
            camera: track(t.camera),
            microphone: track(t.microphone),
            screen: track(t.screen),
            screen_audio: track(t.screenAudio),
          })),
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/livestreams/{id}/transition',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Force a livestream to a status, through the livestream transition table',
    description:
      'Legal moves: OFFLINE (waiting for ingest) → LIVE | OFFLINE (stopped) | ERRORED; LIVE → IDLE | OFFLINE (stopped) | ERRORED; IDLE → LIVE | OFFLINE (stopped) | ERRORED. A disabled livestream does not go LIVE. Anything else is 409.',
    params: () => z.object({ id: z.uuid() }),
    body: forceLivestreamBody,
    responses: {
      200: { description: 'The livestream (v2 shape) after the move', schema: () => livestreamSchema() },
      409: { description: 'The transition table forbids this move' },
    },
    handler: ({ deps, params, body }) => {
      const { livestreams } = deps.services;
      const l = livestreams.locate(params.id);
      return { status: 200, body: livestreamDto(livestreams.force(l.orgId, l.id, body.to), deps.media) };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/presence',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A meeting's session and who is in it (scripted participants)",
    params: () => z.object({ meeting_id: z.uuid() }),
    responses: { 200: { description: 'The presence', schema: () => presenceSchema() } },
    handler: ({ deps, params }) => ({ status: 200, body: presenceDto(deps.services.sessions.presence(params.meeting_id)) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/join',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'A participant joins the meeting (the first join opens a session: meeting.started, record_on_start, live_stream_on_start), or waits in its waiting room',
    description:
      'In a meeting with `waiting_room: true`, a participant whose preset waits (permissions.waiting_room_type) is put in the waiting room instead: 202 with the waiting room, and nothing is published until they are admitted (POST …/waiting-room/admit).',
    params: participantParams,
    body: joinBody,
    responses: {
      200: { description: 'The presence after the join', schema: () => presenceSchema() },
      202: { description: 'The participant waits in the waiting room', schema: () => waitingRoomSchema() },
      409: {
        description:
          'The participant is already in the meeting, the meeting is INACTIVE, or media was asked for with media off or that their preset may not publish (or only from the stage, where they do not stand on joining)',
      },
    },
    handler: async ({ deps, params, body }) => {
      const { sessions, waitingRoom, participants } = deps.services;
      if (body.media && (body.media.audio || body.media.video)) {
        mediaOn(deps.config.media);
        const meeting = sessions.locateMeeting(params.meeting_id);
        mayPublish(deps, meeting, participants.get(meeting.orgId, meeting.id, params.participant_id), body.media);
      }
      if (waitingRoom.isWaiting(params.meeting_id, params.participant_id))
        throw errors.conflict(`Participant ${params.participant_id} already waits in meeting ${params.meeting_id}`);
      if (waitingRoom.enter(params.meeting_id, params.participant_id, 'scripted') === 'waiting')
        return { status: 202, body: waitingRoomDto(params.meeting_id, waitingRoom.list(params.meeting_id)) };
      // With media off only a join asking for nothing on gets here: there is nothing to publish.
      if (body.media && deps.config.media === 'on') await botMedia(deps, params.meeting_id, params.participant_id, body.media);
      return { status: 200, body: presenceDto(sessions.presence(params.meeting_id)) };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/media',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A scripted participant's camera and microphone on or off: the sample clip, a live video tile and a voice in every page",
    params: participantParams,
    body: botMediaBody,
    responses: {
      200: { description: 'What is on afterwards', schema: () => botMediaSchema() },
      404: { description: 'No such meeting, or the meeting has no such participant' },
      409: {
        description:
          'The participant is not in the meeting, their preset may not publish (or only from the stage, and they are off it), or media is off (--media off)',
      },
    },
    handler: async ({ deps, params, body }) => {
      mediaOn(deps.config.media);
      return { status: 200, body: await botMedia(deps, params.meeting_id, params.participant_id, body) };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/leave',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'A participant leaves (the last leave ends the session; an active recording stops 60 s later with ALL_PEERS_LEFT unless someone rejoins), or stops waiting in the waiting room',
    params: participantParams,
    responses: {
      200: { description: 'The presence after the leave', schema: () => presenceSchema() },
      409: { description: 'The participant is neither in the meeting nor waiting' },
    },
    handler: ({ deps, params }) => {
      const { sessions, waitingRoom } = deps.services;
      if (waitingRoom.leave(params.meeting_id, params.participant_id)) return { status: 200, body: presenceDto(sessions.presence(params.meeting_id)) };
      return { status: 200, body: presenceDto(sessions.leave(params.meeting_id, params.participant_id)) };
    },
  }),
];
