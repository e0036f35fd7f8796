// The REST calls the web SDKs (@dytesdk/web-core 3.x, @cloudflare/realtimekit 2.x) make in
// init(), on their own hosts (hosts.ts): the participant and their preset, the room, plugins, ICE
// servers, feature flags, and telemetry sinks. Answered from emulator state where the SDK reads
// something, accepted and discarded where it only reports. The SDK camelCases every answer
// before reading it, so the answers keep the v2 spelling (snake_case) and the preset document is
// the one /v2/presets serves. The SDK's other calls on its api host (recordings, livestreams)
// are the v2 routes themselves: a hosted route comes first on its host, then every other route.
import { z } from 'zod';
import { tlsUrl } from '../config.js';
import { toIso } from '../core/clock.js';
import { errors } from '../core/errors.js';
import type { AuthInfo } from '../http/auth.js';
import { route, type Reply } from '../http/route.js';
import { meetingDto, ok } from '../http/v2/mappers.js';
import { presetDto } from '../http/v2/presets.routes.js';
import { sdkBaseOf, type SdkHost } from './hosts.js';

/**
 * The media mode the room answer selects: the SDK's SFU enum is HIVE 1, ROOM_NODE 2, CF 3. In the
 * Cloudflare-SFU mode media goes through the signalling socket and only ICE must connect.
 */
const CLOUDFLARE_SFU = 3;

/**
 * Emulator decision: where the SDK asks where it is (an ipinfo.io document), the answer is a
 * fixed one. The SDK only needs `loc` longer than five characters to take it (else it asks the
 * legacy service, then goes on without); the place is nowhere in particular.
 */
const LOCATION = Object.freeze({ ip: '127.0.0.1', city: '', region: '', country: '', loc: '0.0000,0.0000', org: '', postal: '', timezone: 'UTC' });

/**
 * The feature flags the SDK is given: @dytesdk/web-core gives a livestream meeting's host its
 * livestream control (meeting.livestream) only when `feat_livestream` is on, as it is for the
 * service's customers; every other flag is off, so that the SDK takes its defaults.
 */
const FLAGS = Object.freeze([{ feature: { name: 'feat_livestream' }, enabled: true, feature_state_value: null }]);

const TAG = 'Web SDK';
const NO_CONTENT: Reply = { status: 204 };

function participantOf(auth: AuthInfo): Extract<AuthInfo, { kind: 'participant' }> {
  if (auth.kind !== 'participant') throw errors.unauthorized();
  return auth;
}

/** A sink the SDK reports to and never reads from: accepted, body unread, nothing kept, not even in the journal. */
function sink(host: SdkHost, method: 'get' | 'post', path: string, summary: string) {
  return route({
    method,
    path,
    api: 'sdk',
    host,
    journal: false,
    auth: 'none',
    tag: TAG,
    summary,
    responses: { 204: { description: 'Accepted and discarded' } },
    handler: () => NO_CONTENT,
  });
}

function location(host: SdkHost, method: 'get' | 'post') {
  return route({
    method,
    path: '/',
    api: 'sdk',
    host,
    auth: 'none',
    tag: TAG,
    summary: 'Where the client is (an ipinfo.io document); a fixed answer',
    responses: { 200: { description: 'ip, city, region, country, loc, org, postal, timezone' } },
    handler: () => ({ status: 200, body: LOCATION }),
  });
}

export const sdkRoutes = [
  route({
    method: 'get',
    path: '/v2/internals/participant-details',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: "The token's participant, their whole preset document and their meeting",
    responses: { 200: { description: 'participant, preset (as /v2/presets/{preset_id} serves it), meeting' } },
    handler: ({ deps, auth }) => {
      const { org, participant: p, preset } = participantOf(auth);
      return ok({
        participant: {
          id: p.id,
          // The SDK encodes both into its join request, where null is no string: an unknown name
          // is empty, an unknown picture absent.
          name: p.name ?? '',
          ...(p.picture === null ? {} : { picture: p.picture }),
          custom_participant_id: p.customParticipantId,
          client_specific_id: p.customParticipantId,
          organization_id: org.id,
          preset_id: p.presetId,
          preset_name: p.presetName,
        },
        preset: presetDto(preset),
        // RealtimeKit reads the meeting's title here (web-core from the room answer).
        meeting: meetingDto(deps.services.meetings.get(org.id, p.meetingId)),
      });
    },
  }),
  route({
    method: 'post',
    path: '/v2/internals/rooms',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: "The room of the token's meeting: its title and media mode (the Cloudflare SFU)",
    description: 'The body (the ipinfo document the SDK got) is not read.',
    responses: { 200: { description: 'room_node_link, title, use_hive_media, sfu' } },
    handler: ({ deps, auth, req }) => {
      const { org, participant: p } = participantOf(auth);
      const meeting = deps.services.meetings.get(org.id, p.meetingId);
      const base = sdkBaseOf(req.headers.host);
      return ok({
        room_node_link: base === undefined ? '' : `wss://socket-edge.${base}`,
        title: meeting.title ?? '',
        use_hive_media: false,
        sfu: CLOUDFLARE_SFU,
      });
    },
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/active-transcript',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: "Where the transcript of the meeting's LIVE session so far is: what a page joining late shows of the lines said before it came",
    description:
      "Asked by the SDK at join when the participant's preset has transcription_enabled; it then downloads the link: the most recent 500 lines the meeting's pages heard live (speakers with transcription_enabled), under the peer ids they heard them with, one CSV line each in the SDK's own form.",
    params: () => z.object({ meeting_id: z.uuid() }),
    responses: {
      200: { description: 'transcript_download_url and transcript_download_url_expiry' },
      403: { description: 'The token is for another meeting' },
      404: { description: 'The meeting has no LIVE session' },
    },
    handler: ({ deps, auth, params }) => {
      const { org, participant } = participantOf(auth);
      if (participant.meetingId !== params.meeting_id) throw errors.forbidden(`The participant token is for meeting ${participant.meetingId}`);
      const file = deps.services.sessionHistory.activeTranscript(org.id, params.meeting_id);
      // The pages are on the TLS listener's origin: a link there is no mixed content.
      const base = tlsUrl(deps.config) ?? deps.config.publicUrl;
      return ok({
        transcript_download_url: `${base}${deps.media.signedPath(file.path, file.expiresAt)}`,
        transcript_download_url_expiry: toIso(file.expiresAt),
      });
    },
  }),
  route({
    method: 'get',
    path: '/v2/plugins/user',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: 'The plugins the participant may use: none (the emulator serves no plugin)',
    responses: { 200: { description: '{ plugins: [] }' } },
    handler: ({ auth }) => {
      participantOf(auth);
      return ok({ plugins: [] });
    },
  }),
  route({
    method: 'get',
    path: '/iceservers',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: 'STUN and TURN servers: none, since the emulator and the page share a machine (host candidates connect)',
    responses: { 200: { description: '{ success: true, iceServers: [] }' } },
    handler: ({ auth }) => {
      participantOf(auth);
      return { status: 200, body: { success: true, iceServers: [] } };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/identities',
    api: 'sdk',
    host: 'flags',
    auth: 'none',
    tag: TAG,
    summary: "Feature flags of an identity (the Flagsmith API): only the livestream's, so that the SDK takes its defaults for the rest",
    responses: { 200: { description: '{ flags: [feat_livestream enabled], traits: [] }' } },
    handler: () => ({ status: 200, body: { flags: FLAGS, traits: [] } }),
  }),
  location('location', 'get'),
  location('location', 'post'),
  location('location-legacy', 'get'),
  location('location-legacy', 'post'),
  sink('api-silos', 'post', '/otel/logs', "The SDK's log lines"),
  sink('da-collector', 'post', '/api/v1/message', "The SDK's call statistics"),
];
