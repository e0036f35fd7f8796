// Control API: an organization's stored recording config, what production sets in its developer
// portal (storage, file name prefix, codecs...). It is the lowest level of the precedence order:
// a meeting's recording_config wins over it, and a start request's settings over both. Its
// storage secrets are taken as the v2 API takes them and never shown again.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { errors } from '../../core/errors.js';
import { takeRecordingConfigSecrets } from '../../domain/recordings/storage-secrets.js';
import type { Deps } from '../../container.js';
import { route } from '../route.js';
import { recordingConfigBody, recordingConfigSchema } from '../v2/recording-config.schemas.js';

const orgParams = lazy(() => z.object({ id: z.uuid() }));
const answer = lazy(() =>
  z.object({
    recording_config: recordingConfigSchema().nullable().meta({ description: 'As given, without storage secrets; null when none is set' }),
  }),
);

const notFound = { 404: { description: 'No organization with that id' } };

/** The organization's id, once it is known to exist. */
function existing(deps: Deps, id: string): string {
  if (!deps.services.organizations.get(id)) throw errors.notFound('organization', id);
  return id;
}

export const orgRecordingConfigRoutes = [
  route({
    method: 'get',
    path: '/_emulator/orgs/{id}/recording-config',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: "An organization's stored recording config (production's developer portal setting), without storage secrets",
    params: orgParams,
    responses: { 200: { description: 'The stored config', schema: () => answer() }, ...notFound },
    handler: ({ deps, params }) => {
      return { status: 200, body: { recording_config: deps.services.recordings.orgRecordingConfig(existing(deps, params.id)) } };
    },
  }),
  route({
    method: 'put',
    path: '/_emulator/orgs/{id}/recording-config',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary:
      "Set an organization's stored recording config (a recording_config as meetings take it; storage secrets are kept in memory only): the lowest level of the precedence order, below the meeting's and the start request's",
    params: orgParams,
    body: recordingConfigBody,
    responses: { 200: { description: 'The stored config, without storage secrets', schema: () => answer() }, ...notFound },
    handler: ({ deps, params, body }) => {
      const orgId = existing(deps, params.id);
      const secrets = takeRecordingConfigSecrets(body);
      return { status: 200, body: { recording_config: deps.services.recordings.setOrgRecordingConfig(orgId, body, secrets) } };
    },
  }),
  route({
    method: 'delete',
    path: '/_emulator/orgs/{id}/recording-config',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: "Remove an organization's stored recording config (and its storage secrets)",
    params: orgParams,
    responses: { 200: { description: 'None is set any more', schema: () => answer() }, ...notFound },
    handler: ({ deps, params }) => {
      return { status: 200, body: { recording_config: deps.services.recordings.setOrgRecordingConfig(existing(deps, params.id), null, undefined) } };
    },
  }),
];
