// The route table: every route the emulator serves, in one list (mounting and OpenAPI).
import { buildOpenApi } from './openapi.js';
import { JsonText, type AnyRoute } from './route.js';
import { clockRoutes } from './control/clock.routes.js';
import { observabilityRoutes } from './control/observability.routes.js';
import { tenancyRoutes } from './control/tenancy.routes.js';
import { orgRecordingConfigRoutes } from './control/org-recording-config.routes.js';
import { stateRoutes } from './control/state.routes.js';
import { openApiRoute, systemRoutes } from './control/system.routes.js';
import { livestreamRoutes } from './v2/livestreams.routes.js';
import { meetingRoutes } from './v2/meetings.routes.js';
import { participantRoutes } from './v2/participants.routes.js';
import { recordingRoutes } from './v2/recordings.routes.js';
import { webhookRoutes } from './v2/webhooks.routes.js';
import { orgRoutes } from './v2/orgs.routes.js';
import { trackRecordingRoutes } from './v2/track-recordings.routes.js';
import { deliveryRoutes } from './control/deliveries.routes.js';
import { productRoutes } from './v1/products.routes.js';
import { categoryRoutes } from './control/categories.routes.js';
import { simulatorRoutes } from './control/simulator.routes.js';
import { lifecycleRoutes } from './control/lifecycle.routes.js';
import { mediaRoutes } from './media/media.routes.js';
import { presetRoutes } from './v2/presets.routes.js';
import { realtimeKitRoutes } from './realtimekit/realtimekit.routes.js';
import { sessionActivityRoutes } from './control/session-activity.routes.js';
import { waitingRoomRoutes } from './control/waiting-room.routes.js';
import { stageRoutes } from './control/stage.routes.js';
import { networkRoutes } from './control/network.routes.js';
import { breakoutRoomRoutes } from './control/breakout-rooms.routes.js';
import { sessionFileRoutes } from './media/session-files.routes.js';
import { activeSessionRoutes } from './v2/active-session.routes.js';
import { orgAnalyticsRoutes } from './v2/org-analytics.routes.js';
import { sessionRoutes } from './v2/sessions.routes.js';
import { dashboardRoutes } from './control/dashboard.routes.js';
import { sdkRoutes } from '../realtime/sdk-api.routes.js';
import { chatFileRoutes } from '../realtime/chat-files.routes.js';
import { tlsRoutes } from '../realtime/tls.routes.js';

/**
 * The served OpenAPI document's text, by public URL: the same code makes the same routes, so the
 * same document; the emulators of one process (a test suite's) serialize its megabyte once. A few
 * URLs are kept, the least recently served going first: emulators started on ports of their own
 * each have a URL of their own, and a megabyte each would otherwise stay for the process's life.
 */
const documents = new Map<string, JsonText>();
const DOCUMENTS_KEPT = 4;

function documentFor(publicUrl: string, build: () => unknown): JsonText {
  let text = documents.get(publicUrl);
  if (text) documents.delete(publicUrl);
  else text = new JsonText(JSON.stringify(build()));
  documents.set(publicUrl, text);
  if (documents.size > DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
  return text;
}

export function allRoutes(publicUrl: string): AnyRoute[] {
  const routes: AnyRoute[] = [
    ...meetingRoutes,
    ...participantRoutes,
    ...recordingRoutes,
    ...livestreamRoutes,
    ...webhookRoutes,
    ...orgRoutes,
    ...trackRecordingRoutes,
    ...productRoutes,
    ...categoryRoutes,
    ...systemRoutes,
    ...clockRoutes,
    ...deliveryRoutes,
    ...simulatorRoutes,
    ...lifecycleRoutes,
    ...mediaRoutes,
    ...tenancyRoutes,
    ...orgRecordingConfigRoutes,
    ...stateRoutes,
    ...observabilityRoutes,
    ...presetRoutes,
    ...activeSessionRoutes,
    ...sessionRoutes,
    ...orgAnalyticsRoutes,
    ...sessionActivityRoutes,
    ...waitingRoomRoutes,
    ...stageRoutes,
    ...networkRoutes,
    ...breakoutRoomRoutes,
    ...sessionFileRoutes,
    ...dashboardRoutes,
    ...tlsRoutes,
    ...sdkRoutes,
    ...chatFileRoutes,
    openApiRoute(() => documentFor(publicUrl, () => buildOpenApi(routes, publicUrl))),
  ];
  // Every v2 route above also answers under the RealtimeKit prefix: derived here, from the list
  // as it stands, so a v2 route added to it has its twin without a word more.
  routes.push(...realtimeKitRoutes(routes));
  return routes;
}
