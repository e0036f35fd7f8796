// Every route of the session history, in one list for the route table: the v2 sessions and
// active-session APIs, the daywise analytics, the control routes that script what participants
// say, and the downloads of a session's files.
import type { AnyRoute } from './route.js';
import { sessionActivityRoutes } from './control/session-activity.routes.js';
import { sessionFileRoutes } from './media/session-files.routes.js';
import { activeSessionRoutes } from './v2/active-session.routes.js';
import { orgAnalyticsRoutes } from './v2/org-analytics.routes.js';
import { sessionRoutes } from './v2/sessions.routes.js';

export const sessionHistoryRoutes: AnyRoute[] = [
  ...activeSessionRoutes,
  ...sessionRoutes,
  ...orgAnalyticsRoutes,
  ...sessionActivityRoutes,
  ...sessionFileRoutes,
];
