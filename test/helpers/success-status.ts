// The success status of every route, written out: the oracle of the table-driven tests that walk
// the route table (the auth matrix, the limits), so that a change of a route's declaration alone
// cannot move what they expect. Creations answer 201 (v2 meetings, participants, livestreams,
// webhooks; v1 products, docs/api-v1.md; control organizations and fault rules), except where the
// v2 API answers 200 (POST /v2/recordings, a participant's fresh token, POST /v2/presets); clearing a list answers
// 204; everything else 200.
export const SUCCESS_STATUS: Readonly<Record<string, number>> = {
  'post /v2/meetings': 201,
  'get /v2/meetings': 200,
  'get /v2/meetings/{id}': 200,
  'patch /v2/meetings/{id}': 200,
  'put /v2/meetings/{id}': 200,
  'post /v2/meetings/{meeting_id}/participants': 201,
  'get /v2/meetings/{meeting_id}/participants': 200,
  'get /v2/meetings/{meeting_id}/participants/{participant_id}': 200,
  'patch /v2/meetings/{meeting_id}/participants/{participant_id}': 200,
  'delete /v2/meetings/{meeting_id}/participants/{participant_id}': 200,
  'post /v2/meetings/{meeting_id}/participants/{participant_id}/token': 200,
  'post /v2/recordings': 200,
  'get /v2/recordings': 200,
  'get /v2/recordings/active-recording/{meeting_id}': 200,
  'get /v2/recordings/{id}': 200,
  'put /v2/recordings/{id}': 200,
  'post /v2/meetings/{meeting_id}/livestreams': 201,
  'get /v2/meetings/{meeting_id}/active-livestream': 200,
  'post /v2/meetings/{meeting_id}/active-livestream/stop': 200,
  'get /v2/meetings/{meeting_id}/livestream': 200,
  'get /v2/livestreams': 200,
  'get /v2/livestreams/{id}': 200,
  'post /v2/webhooks': 201,
  'get /v2/webhooks': 200,
  'get /v2/webhooks/{id}': 200,
  'put /v2/webhooks/{id}': 200,
  'patch /v2/webhooks/{id}': 200,
  'delete /v2/webhooks/{id}': 200,
  'get /v2/presets': 200,
  'post /v2/presets': 200,
  'get /v2/presets/{preset_id}': 200,
  'patch /v2/presets/{preset_id}': 200,
  'delete /v2/presets/{preset_id}': 200,
  'post /api/v1/products': 201,
  'get /api/v1/products/{svc_code}': 200,
  'post /v1/products': 201,
  'get /v1/products/{svc_code}': 200,
  'get /_emulator/categories': 200,
  'get /_emulator/health': 200,
  'get /.well-known/jwks.json': 200,
  'get /_emulator/clock': 200,
  'post /_emulator/clock/advance': 200,
  'put /_emulator/clock': 200,
  'get /_emulator/webhooks/deliveries': 200,
  'get /_emulator/webhooks/deliveries/{id}': 200,
  'post /_emulator/webhooks/deliveries/{id}/redeliver': 200,
  'get /.well-known/webhooks.json': 200,
  'get /_emulator/simulator': 200,
  'patch /_emulator/simulator': 200,
  'post /_emulator/recordings/{id}/transition': 200,
  'post /_emulator/livestreams/{id}/transition': 200,
  'get /_emulator/meetings/{meeting_id}/presence': 200,
  'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/join': 200,
  'post /_emulator/meetings/{meeting_id}/participants/{participant_id}/leave': 200,
  'get /media/recordings/{recording_id}/{file}.mp4': 200,
  'get /media/recordings/{recording_id}/{file}.m4a': 200,
  'get /media/livestreams/{livestream_id}/index.m3u8': 200,
  'get /media/livestreams/{livestream_id}/segments/{seq}.ts': 200,
  'post /_emulator/orgs': 201,
  'get /_emulator/orgs': 200,
  'post /_emulator/orgs/{id}/reset': 200,
  'post /_emulator/reset': 200,
  'get /_emulator/state': 200,
  'put /_emulator/state': 200,
  'get /_emulator/requests': 200,
  'delete /_emulator/requests': 204,
  'post /_emulator/faults': 201,
  'get /_emulator/faults': 200,
  'delete /_emulator/faults': 204,
  'get /_emulator/openapi.json': 200,
  // RealtimeKit: the apps; the v2 operations under the app prefix answer as on /v2 (below).
  'get /client/v4/accounts/{account_id}/realtime/kit/apps': 200,
  'post /client/v4/accounts/{account_id}/realtime/kit/apps': 201,
};

const KIT_APP_PREFIX = '/client/v4/accounts/{account_id}/realtime/kit/{app_id}/';

/** The success status of `method path`; a route missing here fails the test that asked. */
export function successStatus(route: { method: string; path: string }): number {
  const path = route.path.startsWith(KIT_APP_PREFIX) ? `/v2/${route.path.slice(KIT_APP_PREFIX.length)}` : route.path;
  const status = SUCCESS_STATUS[`${route.method} ${path}`];
  if (status === undefined) throw new Error(`no success status written for ${route.method} ${route.path}: add it to test/helpers/success-status.ts`);
  return status;
}
