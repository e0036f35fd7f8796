// A meeting's stage from a test or the dashboard: who stands where, and a scripted participant's
// moves: their own (ask for the stage, cancel, join, leave) and, for a host bot, others' (let on,
// turn down, remove). The rules and the checks are the domain's (domain/meetings/stage.service.ts);
// pages hear every move as they hear a page's.
//
// The control API carries no credentials, so meetings are found by id in any organization.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { STAGE_STATUSES } from '../../domain/meetings/stage-rules.js';
import type { StageStanding } from '../../domain/meetings/stage.service.js';
import { route } from '../route.js';
import { participantView, participantViewSchema } from './participant-view.js';

const TAG = 'Control: lifecycles';

export const stageSchema = lazy(() =>
  z.object({
    meeting_id: z.uuid(),
    participants: z
      .array(participantViewSchema().extend({ status: z.enum(STAGE_STATUSES) }))
      .meta({ description: 'Everyone in the meeting and where they stand (ON_STAGE for everyone in a meeting whose presets have no stage)' }),
  }),
);

function stageDto(meetingId: string, standings: StageStanding[]): z.infer<ReturnType<typeof stageSchema>> {
  return {
    meeting_id: meetingId,
    participants: standings.map((s) => ({ ...participantView(s.participant), status: s.status })),
  };
}

const OWN = ['request', 'cancel', 'join', 'leave'] as const;
const HOST = ['grant', 'deny', 'kick'] as const;

function isHost(action: (typeof OWN)[number] | (typeof HOST)[number]): action is (typeof HOST)[number] {
  return (HOST as readonly string[]).includes(action);
}

const moveBody = lazy(() =>
  z
    .strictObject({
      action: z.enum([...OWN, ...HOST]).meta({
        description:
          "The participant's own move (request: ask a host; cancel: withdraw the request; join: step on once let on, or at will with stage access ALLOWED; leave) or, for a host bot, a move on others (grant: let on, also an invitation; deny: turn a request down; kick: remove from the stage)",
      }),
      participant_ids: z
        .array(z.uuid())
        .min(1)
        .max(100)
        .optional()
        .meta({ description: 'Whom a grant, deny or kick moves (all of them, or on an error none)' }),
    })
    .superRefine((b, ctx) => {
      const host = isHost(b.action);
      if (host && !b.participant_ids) ctx.addIssue({ code: 'custom', path: ['participant_ids'], message: `is required for ${b.action}` });
      if (!host && b.participant_ids) ctx.addIssue({ code: 'custom', path: ['participant_ids'], message: `is only for grant, deny and kick, not ${b.action}` });
    }),
);

export const stageRoutes = [
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/stage',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "Who stands where on a meeting's stage: ON_STAGE, OFF_STAGE, REQUESTED_TO_JOIN_STAGE, ACCEPTED_TO_JOIN_STAGE",
    params: () => z.object({ meeting_id: z.uuid() }),
    responses: { 200: { description: 'The stage', schema: () => stageSchema() } },
    handler: ({ deps, params }) => ({ status: 200, body: stageDto(params.meeting_id, deps.services.stage.standings(params.meeting_id)) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/stage',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'A scripted participant moves on the stage (request, cancel, join, leave), or as a host bot moves others (grant, deny, kick with participant_ids), as a page would',
    params: () => z.object({ meeting_id: z.uuid(), participant_id: z.uuid() }),
    body: moveBody,
    responses: {
      200: { description: 'The stage afterwards', schema: () => stageSchema() },
      403: { description: "The host bot's preset may not manage the stage" },
      404: { description: 'No such meeting' },
      409: { description: 'The move is not open to them now (not in the meeting, no stage, not let on, …); nothing changed' },
    },
    handler: ({ deps, params, body }) => {
      const { stage } = deps.services;
      const { action, participant_ids: targets } = body;
      // The body's check guarantees participant_ids exactly for a host's moves.
      if (isHost(action)) stage.manage(params.meeting_id, params.participant_id, action, targets ?? []);
      else stage.own(params.meeting_id, params.participant_id, action);
      return { status: 200, body: stageDto(params.meeting_id, stage.standings(params.meeting_id)) };
    },
  }),
];
