// Presets (docs/api-v2.md, "Presets"): GET|POST /v2/presets, GET|PATCH|PUT|DELETE
// /v2/presets/{preset_id}. Fixture presets and created ones answer alike.
import type { z } from 'zod';
import { toIso } from '../../core/clock.js';
import type { Preset } from '../../domain/models.js';
import type { PresetDocumentPatch } from '../../domain/presets/preset-document.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok, paged } from './mappers.js';
import { createPresetBody, patchPresetBody, presetListItemSchema, presetParams, presetSchema } from './presets.schemas.js';
import { envelope, pagedEnvelope, pageQuery } from './schemas.js';

export function presetDto(p: Preset): z.infer<ReturnType<typeof presetSchema>> {
  return structuredClone({
    id: p.id,
    name: p.name,
    config: p.config,
    permissions: p.permissions,
    ui: p.ui,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  }) as z.infer<ReturnType<typeof presetSchema>>;
}

function presetListItemDto(p: Preset): z.infer<ReturnType<typeof presetListItemSchema>> {
  return { id: p.id, name: p.name, created_at: toIso(p.createdAt), updated_at: toIso(p.updatedAt) };
}

const nameTaken = { 409: { description: 'Another preset of the organization has this name' } };

export const presetRoutes = [
  route({
    method: 'get',
    path: '/v2/presets',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: "Fetch all of the organization's presets (in creation order, paged)",
    query: pageQuery,
    responses: { 200: { description: 'A page of presets (id, name, times)', schema: () => pagedEnvelope(presetListItemSchema()) } },
    handler: ({ deps, auth, query }) => paged(deps.services.presets.list(orgOf(auth).id, { page: query.page_no, perPage: query.per_page }), presetListItemDto),
  }),
  route({
    method: 'post',
    path: '/v2/presets',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: 'Create a preset; participants can be added with it by its name at once',
    description: 'Name, config and ui are required as in production; permissions left out take the defaults of an ordinary participant.',
    body: createPresetBody,
    responses: { 200: { description: 'The whole preset', schema: () => envelope(presetSchema()) }, ...nameTaken },
    handler: ({ deps, auth, body }) => ok(presetDto(deps.services.presets.create(orgOf(auth).id, body as PresetDocumentPatch & { name: string }))),
  }),
  route({
    method: 'get',
    path: '/v2/presets/{preset_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: 'Fetch a preset',
    params: presetParams,
    responses: { 200: { description: 'The whole preset', schema: () => envelope(presetSchema()) } },
    handler: ({ deps, auth, params }) => ok(presetDto(deps.services.presets.get(orgOf(auth).id, params.preset_id))),
  }),
  route({
    method: 'patch',
    path: '/v2/presets/{preset_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: 'Update a preset: only the given fields change, at any depth',
    params: presetParams,
    body: patchPresetBody,
    responses: { 200: { description: 'The updated preset', schema: () => envelope(presetSchema()) }, ...nameTaken },
    handler: ({ deps, auth, params, body }) =>
      ok(presetDto(deps.services.presets.update(orgOf(auth).id, params.preset_id, body as PresetDocumentPatch & { name?: string }))),
  }),
  // Not in the production document this emulator follows, but in the RealtimeKit API that serves
  // the same presets (its official client replaces a preset with it).
  route({
    method: 'put',
    path: '/v2/presets/{preset_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: 'Replace a preset: the whole document as POST takes it; what is not given returns to its default',
    params: presetParams,
    body: createPresetBody,
    responses: { 200: { description: 'The replaced preset', schema: () => envelope(presetSchema()) }, ...nameTaken },
    handler: ({ deps, auth, params, body }) =>
      ok(presetDto(deps.services.presets.replace(orgOf(auth).id, params.preset_id, body as PresetDocumentPatch & { name: string }))),
  }),
  route({
    method: 'delete',
    path: '/v2/presets/{preset_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Presets',
    summary: 'Delete a preset; answers the deleted preset (participants added with it keep its name, their tokens stop working)',
    params: presetParams,
    responses: { 200: { description: 'The deleted preset', schema: () => envelope(presetSchema()) } },
    handler: ({ deps, auth, params }) => ok(presetDto(deps.services.presets.remove(orgOf(auth).id, params.preset_id))),
  }),
];
