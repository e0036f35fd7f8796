// Property tests over every RealtimeKit route of the route table: the twins of the v2 routes
// under /client/v4/accounts/{account_id}/realtime/kit/{app_id} and the apps routes. The
// invariants are in fuzz-world.ts.
import { ROUTES, describeRouteProperties } from './fuzz-world.js';

const routes = ROUTES.filter((r) => r.api === 'realtimekit');

describeRouteProperties('every RealtimeKit route keeps its invariants under hostile input', routes);
