// Breakout rooms for scripts and bots (no page, no credentials): what a host's page does with the
// SDK's meeting.connectedMeetings — open rooms, rename them, move participants between a meeting
// and its rooms, close rooms — through the same domain calls, so every page, the REST API and the
// webhooks see the same. `meeting_id` is any meeting of the family (the parent or a room).
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import type { Family } from '../../domain/meetings/connected-meetings.service.js';
import type { Meeting, Participant } from '../../domain/models.js';
import { BREAKOUT_TITLE_CHARS, MAX_BREAKOUT_ROOMS } from '../../domain/meetings/connected-meetings.service.js';
import { route } from '../route.js';

const TAG = 'Control: lifecycles';
const meetingParams = lazy(() => z.object({ meeting_id: z.uuid() }));
const title = lazy(() => z.string().max(BREAKOUT_TITLE_CHARS));
/** The most participants one move names (as many as a kick or a mute may). */
const MAX_MOVES = 100;

const memberSchema = lazy(() => z.object({ id: z.uuid(), custom_participant_id: z.string(), name: z.string().nullable(), preset_name: z.string() }));
const roomSchema = lazy(() => z.object({ id: z.uuid(), title: z.string().nullable(), status: z.enum(['ACTIVE', 'INACTIVE']) }));
const familySchema = lazy(() =>
  z.object({
    parent: roomSchema().extend({ participants: z.array(memberSchema()) }),
    rooms: z.array(roomSchema().extend({ participants: z.array(memberSchema()) })).meta({ description: 'The open rooms, in the order they were opened' }),
  }),
);

const member = (p: Participant) => ({ id: p.id, custom_participant_id: p.customParticipantId, name: p.name, preset_name: p.presetName });
const room = (m: Meeting) => ({ id: m.id, title: m.title, status: m.status });

function familyDto(f: Family, present: (m: Meeting) => Participant[]): z.infer<ReturnType<typeof familySchema>> {
  return {
    parent: { ...room(f.parent), participants: present(f.parent).map(member) },
    rooms: f.rooms.map((r) => ({ ...room(r), participants: present(r).map(member) })),
  };
}

const refused = { 409: { description: 'A meeting that is not of this family or not open, a participant not in the source meeting, too many rooms' } };

export const breakoutRoomRoutes = [
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/breakout-rooms',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A meeting's family: its parent and open breakout rooms, with who is in each",
    params: meetingParams,
    responses: { 200: { description: 'The family', schema: () => familySchema() } },
    handler: ({ deps, params }) => {
      const { connectedMeetings } = deps.services;
      return { status: 200, body: familyDto(connectedMeetings.family(params.meeting_id), (m) => connectedMeetings.present(m)) };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/breakout-rooms',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: `Opens breakout rooms (real meetings, children of the family's parent; at most ${MAX_BREAKOUT_ROOMS} open at once)`,
    params: meetingParams,
    body: () =>
      z.strictObject({
        rooms: z
          .array(z.strictObject({ title: title().optional().meta({ description: 'Absent: "Room <n>"' }) }))
          .min(1)
          .max(MAX_BREAKOUT_ROOMS),
      }),
    responses: { 201: { description: 'The rooms opened', schema: () => z.object({ rooms: z.array(roomSchema()) }) }, ...refused },
    handler: ({ deps, params, body }) => ({
      status: 201,
      body: {
        rooms: deps.services.connectedMeetings
          .open(
            params.meeting_id,
            body.rooms.map((r) => r.title),
          )
          .map(room),
      },
    }),
  }),
  route({
    method: 'patch',
    path: '/_emulator/meetings/{meeting_id}/breakout-rooms/{room_id}',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Renames an open breakout room (every page of the family hears it)',
    params: () => z.object({ meeting_id: z.uuid(), room_id: z.uuid() }),
    body: () => z.strictObject({ title: title() }),
    responses: { 200: { description: 'The room', schema: () => roomSchema() }, ...refused },
    handler: ({ deps, params, body }) => ({ status: 200, body: room(deps.services.connectedMeetings.rename(params.meeting_id, params.room_id, body.title)) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/breakout-rooms/move',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'Moves participants between two meetings of the family: a page is told to move (it leaves and joins the destination), a scripted participant is moved at once',
    params: meetingParams,
    body: () =>
      z.strictObject({
        source_meeting_id: z.uuid(),
        destination_meeting_id: z.uuid(),
        participants: z
          .array(z.strictObject({ id: z.uuid().meta({ description: 'The participant in the source meeting' }), preset_id: z.uuid().optional() }))
          .min(1)
          .max(MAX_MOVES),
      }),
    responses: {
      200: {
        description: 'Each move: the participant in the source and the same person in the destination',
        schema: () =>
          z.object({
            moves: z.array(
              z.object({
                participant_id: z.uuid(),
                destination_participant_id: z.uuid(),
                custom_participant_id: z.string(),
                moved_by: z.enum(['page', 'emulator']).meta({ description: 'page: the page was told and moves by itself; emulator: moved already' }),
              }),
            ),
          }),
      },
      ...refused,
    },
    handler: ({ deps, params, body }) => {
      const transfers = deps.services.connectedMeetings.move(
        params.meeting_id,
        body.source_meeting_id,
        body.destination_meeting_id,
        body.participants.map((p) => ({ participantId: p.id, ...(p.preset_id ? { presetId: p.preset_id } : {}) })),
      );
      return {
        status: 200,
        body: {
          moves: transfers.map((t) => ({
            participant_id: t.from.id,
            destination_participant_id: t.to.id,
            custom_participant_id: t.to.customParticipantId,
            moved_by: t.byPage ? ('page' as const) : ('emulator' as const),
          })),
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/breakout-rooms/close',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'Closes breakout rooms: whoever is still in one is moved back to the parent first; the rooms become INACTIVE',
    params: meetingParams,
    body: () => z.strictObject({ room_ids: z.array(z.uuid()).min(1).max(MAX_BREAKOUT_ROOMS) }),
    responses: { 200: { description: 'The rooms closed', schema: () => z.object({ rooms: z.array(roomSchema()) }) }, ...refused },
    handler: ({ deps, params, body }) => ({ status: 200, body: { rooms: deps.services.connectedMeetings.close(params.meeting_id, body.room_ids).map(room) } }),
  }),
];
