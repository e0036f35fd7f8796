// Control API: export and import of the whole state.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { errors } from '../../core/errors.js';
import { FixtureError } from '../../store/fixtures.js';
import { route } from '../route.js';

const stateDocumentSchema = lazy(() => z.looseObject({ version: z.literal(1), organizations: z.array(z.looseObject({})) }));

export const stateRoutes = [
  route({
    method: 'get',
    path: '/_emulator/state',
    api: 'control',
    auth: 'none',
    tag: 'Control: state',
    summary:
      'Export everything (organizations with their API keys, presets, resources, pending jobs and deliveries, the clock, the id position, the simulator policy, the signing keys) as a fixtures document; storage secrets are never part of it',
    responses: { 200: { description: 'The state document', schema: () => stateDocumentSchema() } },
    handler: ({ deps }) => ({ status: 200, body: deps.state.export() }),
  }),
  route({
    method: 'put',
    path: '/_emulator/state',
    api: 'control',
    auth: 'none',
    tag: 'Control: state',
    summary: 'Import a state document (as GET exports it, or any fixtures file): it replaces all state; up to 64 MiB',
    body: () => z.unknown(),
    largeBody: true,
    responses: { 200: { description: 'Imported', schema: () => z.object({ status: z.literal('imported'), organizations: z.number().int() }) } },
    handler: ({ deps, body }) => {
      let doc;
      try {
        doc = deps.state.parse(body, 'state');
      } catch (err) {
        if (err instanceof FixtureError) throw errors.badRequest(err.message, 'INVALID_STATE');
        throw err;
      }
      deps.state.load(doc);
      return { status: 200, body: { status: 'imported' as const, organizations: deps.store.orgs.size } };
    },
  }),
];
