// Network trouble on demand, from a test or the dashboard: a page's signalling socket dropped or
// refused for a while, its media cut, or its media lost, delayed and capped on the media plane, per
// participant or for a whole meeting (docs/bad-network.md). What the scenarios do is the rooms'
// (src/realtime/network/network-trouble.ts); here they are asked for and shown.
//
// The control API carries no credentials, so meetings are found by id in any organization; a
// participant must be one of the meeting's.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { route } from '../route.js';
import { networkBody, networkDto, networkSchema } from './network-view.js';

const TAG = 'Control: network';

const meetingParams = lazy(() => z.object({ meeting_id: z.uuid() }));
const participantParams = lazy(() => z.object({ meeting_id: z.uuid(), participant_id: z.uuid() }));

const refusals = {
  400: { description: 'An unknown scenario, a figure out of bounds, a field the scenario does not take; nothing applied' },
  404: { description: 'No such meeting, or the participant is not one of the meeting’s' },
  409: { description: 'Nothing to act on: no page connected (signal-drop), no media flowing (media-drop); nothing applied' },
};

export const networkRoutes = [
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/network',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'The network scenarios in force in a meeting, and how each participant’s pages and media stand',
    params: meetingParams,
    responses: { 200: { description: 'The meeting’s network', schema: () => networkSchema() }, 404: refusals[404] },
    handler: ({ deps, params }) => ({ status: 200, body: networkDto(deps.signalling.network(params.meeting_id, null)) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/network',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'Network trouble for everyone in a meeting: {"scenario": signal-drop | signal-outage | media-drop | loss | latency | bandwidth | clear, …}; lasts until cleared, or for seconds',
    params: meetingParams,
    body: networkBody,
    responses: { 200: { description: 'The meeting’s network afterwards', schema: () => networkSchema() }, ...refusals },
    handler: ({ deps, params, body }) => ({ status: 200, body: networkDto(deps.signalling.setNetwork(params.meeting_id, null, body)) }),
  }),
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/network',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'The network scenarios that apply to a participant (the meeting’s and their own), their media’s link and their pages’ connection',
    params: participantParams,
    responses: { 200: { description: 'The participant’s network', schema: () => networkSchema() }, 404: refusals[404] },
    handler: ({ deps, params }) => ({ status: 200, body: networkDto(deps.signalling.network(params.meeting_id, params.participant_id)) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/network',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      'Network trouble for one participant’s page (or a bot’s clip): drop or refuse its socket, cut its media, or lose, delay or cap its media per direction; clear',
    params: participantParams,
    body: networkBody,
    responses: { 200: { description: 'The participant’s network afterwards', schema: () => networkSchema() }, ...refusals },
    handler: ({ deps, params, body }) => ({
      status: 200,
      body: networkDto(deps.signalling.setNetwork(params.meeting_id, params.participant_id, body)),
    }),
  }),
];
