// The route table: every route the emulator serves, in one list (mounting and OpenAPI).
import { buildOpenApi } from './openapi.js';
import type { AnyRoute } from './route.js';
import { clockRoutes } from './control/clock.routes.js';
import { openApiRoute, systemRoutes } from './control/system.routes.js';
import { livestreamRoutes } from './v2/livestreams.routes.js';
import { meetingRoutes } from './v2/meetings.routes.js';
import { participantRoutes } from './v2/participants.routes.js';
import { recordingRoutes } from './v2/recordings.routes.js';

export function allRoutes(publicUrl: string): AnyRoute[] {
  let document: unknown;
  const routes: AnyRoute[] = [
    ...meetingRoutes,
    ...participantRoutes,
    ...recordingRoutes,
    ...livestreamRoutes,
    ...systemRoutes,
    ...clockRoutes,
    openApiRoute(() => (document ??= buildOpenApi(routes, publicUrl))),
  ];
  return routes;
}
