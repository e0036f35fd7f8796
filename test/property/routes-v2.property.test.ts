// Property tests over every v2 route of the route table: random and
// adversarial bodies, queries, path ids, headers, content types, encodings and sizes. The
// invariants are in fuzz-world.ts.
import { ROUTES, describeRouteProperties } from './fuzz-world.js';

const routes = ROUTES.filter((r) => r.api === 'v2');

describeRouteProperties('every v2 route keeps its invariants under hostile input', routes);
