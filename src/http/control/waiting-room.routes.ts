// A meeting's waiting room from a test or the dashboard: who waits (pages and scripted
// participants alike), and admitting or rejecting them, as a host bot (`by`: a participant in the
// meeting whose preset may accept waiting requests) or as the emulator's operator (no `by`).
// A scripted participant waits by joining (lifecycle.routes.ts); the rules of who waits are the
// domain's (domain/meetings/waiting-room.service.ts).
//
// The control API carries no credentials, so meetings are found by id in any organization.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { toIso } from '../../core/clock.js';
import type { WaitingEntry } from '../../domain/meetings/waiting-room.service.js';
import { route } from '../route.js';
import { isoTime } from '../v2/schemas.js';
import { participantView, participantViewSchema } from './participant-view.js';

const TAG = 'Control: lifecycles';

export const waitingRoomSchema = lazy(() =>
  z.object({
    meeting_id: z.uuid(),
    waiting: z
      .array(
        participantViewSchema().extend({
          since: isoTime(),
          via: z.enum(['page', 'scripted']).meta({ description: 'A page of the web SDK, or a scripted participant (the control API)' }),
        }),
      )
      .meta({ description: 'Who waits, in the order they arrived' }),
  }),
);

export function waitingRoomDto(meetingId: string, entries: WaitingEntry[]): z.infer<ReturnType<typeof waitingRoomSchema>> {
  return {
    meeting_id: meetingId,
    waiting: entries.map((w) => ({ ...participantView(w.participant), since: toIso(w.since), via: w.via })),
  };
}

const decisionBody = lazy(() =>
  z.strictObject({
    participant_ids: z.array(z.uuid()).min(1).max(100).meta({ description: 'Who waits and is admitted or rejected: all of them, or (on an error) none' }),
    by: z.uuid().optional().meta({
      description:
        "The host who decides: a participant in the meeting whose preset may accept waiting requests (permissions.accept_waiting_requests). Absent: the emulator's operator (the dashboard), who may always",
    }),
  }),
);

function decisionRoute(verb: 'admit' | 'reject') {
  return route({
    method: 'post',
    path: `/_emulator/meetings/{meeting_id}/waiting-room/${verb}`,
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      verb === 'admit'
        ? 'Admit participants who wait: a scripted one joins at once, a page joins as its SDK hears it was accepted'
        : 'Reject participants who wait: they leave the waiting room without joining (a page shows it was rejected)',
    params: () => z.object({ meeting_id: z.uuid() }),
    body: decisionBody,
    responses: {
      200: { description: 'The waiting room afterwards', schema: () => waitingRoomSchema() },
      403: { description: "`by`'s preset may not accept waiting requests" },
      404: { description: 'No such meeting, or `by` is no participant of it' },
      409: { description: 'Someone named does not wait in this meeting, or `by` is not in the meeting; nothing changed' },
    },
    handler: ({ deps, params, body }) => {
      const { waitingRoom } = deps.services;
      if (verb === 'admit') waitingRoom.admit(params.meeting_id, body.participant_ids, body.by ?? null);
      else waitingRoom.reject(params.meeting_id, body.participant_ids, body.by ?? null);
      return { status: 200, body: waitingRoomDto(params.meeting_id, waitingRoom.list(params.meeting_id)) };
    },
  });
}

export const waitingRoomRoutes = [
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/waiting-room',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "Who waits in a meeting's waiting room (pages and scripted participants)",
    params: () => z.object({ meeting_id: z.uuid() }),
    responses: { 200: { description: 'The waiting room', schema: () => waitingRoomSchema() } },
    handler: ({ deps, params }) => ({ status: 200, body: waitingRoomDto(params.meeting_id, deps.services.waitingRoom.list(params.meeting_id)) }),
  }),
  decisionRoute('admit'),
  decisionRoute('reject'),
];
