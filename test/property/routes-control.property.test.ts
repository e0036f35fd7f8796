// Property tests over every route of the control API (/_emulator, /.well-known) of the route
// table. The invariants are in fuzz-world.ts; an accepted change is undone
// by importing the world's state again, so every run meets the same world.
import { ROUTES, describeRouteProperties } from './fuzz-world.js';

const routes = ROUTES.filter((r) => r.api === 'control');

describeRouteProperties('every control route keeps its invariants under hostile input', routes);
