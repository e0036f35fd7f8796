// The v2 routes as the route table declares them, with their path parameters filled in from a
// small world (a meeting with a participant in it, a recording and a LIVE livestream), so that a
// request whose auth is right would succeed: a 401 then shows that auth alone refused it.
import { allRoutes } from '../../src/http/routes.js';
import type { AnyRoute } from '../../src/http/route.js';
import { MISSING_ID, PRESETS, PRESET_BODY, addParticipant, createLivestream, createMeeting, startRecording } from './builders.js';
import { BASIC, ORG_ID, type TestApp } from './test-app.js';

export const V2_ROUTES: AnyRoute[] = allRoutes('http://emulator.test').filter((r) => r.api === 'v2');

/** The only routes on which a participant token is accepted (docs/api-v2.md, "Participant tokens"). */
export const PARTICIPANT_TOKEN_ROUTES = [
  'post /v2/recordings',
  'get /v2/recordings',
  'get /v2/recordings/{id}',
  'get /v2/recordings/active-recording/{meeting_id}',
  'put /v2/recordings/{id}',
  'post /v2/meetings/{meeting_id}/livestreams',
  'get /v2/meetings/{meeting_id}/active-livestream',
  'post /v2/meetings/{meeting_id}/active-livestream/stop',
];

/** The partner API (docs/api-v2.md, "Organizations"): the partner token, not an organization's credentials. */
export const PARTNER_ROUTES = ['get /v2/orgs', 'post /v2/orgs', 'get /v2/orgs/{org_id}', 'patch /v2/orgs/{org_id}'];
/** The default partner token (--partner-token). */
export const PARTNER_AUTH = 'Bearer emulator-partner-token';

export const routeName = (r: Pick<AnyRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** Credentials the route accepts: the partner token on the partner API, Basic everywhere else. */
export const credentialsFor = (r: Pick<AnyRoute, 'auth'>) => (r.auth === 'partner-bearer' ? PARTNER_AUTH : BASIC);

export interface World {
  meetingId: string;
  participantId: string;
  token: string;
  recordingId: string;
  livestreamId: string;
  /** The meeting's session (the participant is in the meeting). */
  sessionId: string;
  /** The livestream's one session: it went LIVE during the meeting's session. */
  livestreamSessionId: string;
}

export async function buildWorld(t: TestApp): Promise<World> {
  const m = await createMeeting(t.api, { title: 'World' });
  const p = await addParticipant(t.api, m.id, { name: 'Host', custom_participant_id: 'host' });
  const r = await startRecording(t.api, m.id);
  const presence = await t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/join`).expect(200);
  const l = await createLivestream(t.api, m.id);
  await t.api.post(`/_emulator/livestreams/${l.id}/transition`).send({ to: 'LIVE' }).expect(200);
  const live = await t.api.get(`/v2/livestreams/${l.id}/active-livestream-session`).set('Authorization', BASIC).expect(200);
  return {
    meetingId: m.id,
    participantId: p.id,
    token: p.token,
    recordingId: r.id,
    livestreamId: l.id,
    sessionId: presence.body.session.id,
    livestreamSessionId: live.body.data.session.id,
  };
}

/** The concrete URL of a route in the world. */
export function urlOf(r: Pick<AnyRoute, 'path'>, w: World): string {
  const idFor = r.path.startsWith('/v2/recordings/')
    ? w.recordingId
    : r.path.startsWith('/v2/livestreams/')
      ? w.livestreamId
      : r.path.startsWith('/v2/meetings/')
        ? w.meetingId
        : MISSING_ID;
  return r.path
    .replace('{meeting_id}', w.meetingId)
    .replace('{participant_id}', w.participantId)
    .replace('{livestream_id}', w.livestreamId)
    .replace('{session_id}', w.sessionId)
    .replace('{livestream-session-id}', w.livestreamSessionId)
    .replace('{peer_id}', w.participantId)
    .replace('{preset_id}', PRESETS.participant.id)
    .replace('{org_id}', ORG_ID)
    .replace('{id}', idFor);
}

/** A body the route accepts in the world (so only auth, content type or size can refuse it). */
export function validBody(r: Pick<AnyRoute, 'method' | 'path'>, w: World): Record<string, unknown> {
  switch (routeName(r)) {
    case 'post /v2/recordings':
      return { meeting_id: w.meetingId, allow_multiple_recordings: true };
    case 'put /v2/recordings/{id}':
      return { action: 'pause' };
    case 'post /v2/meetings/{meeting_id}/participants':
      return { preset_name: 'group_call_host', custom_participant_id: 'another' };
    case 'post /v2/orgs':
      return { name: 'Another organization', contact: '', website: 'https://another.example' };
    case 'post /v2/presets':
      return { ...PRESET_BODY, name: 'another' };
    default:
      return {};
  }
}
