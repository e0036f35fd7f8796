// v2 preset wire schemas: the request bodies as production's document requires them, the
// answered document (every field present) and the list item. Each is built when first needed
// (lazy): the preset documents are the costliest schemas of the emulator to build.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { presetDocumentSchemas } from '../../domain/presets/preset-document.js';
import { LIMITS } from '../limits.js';
import { isoTime } from './schemas.js';

const presetName = lazy(() => z.string().min(1).max(LIMITS.nameMax));

/** POST: name, config and ui (with every design token) are required; permissions, when given, whole. */
export const createPresetBody = lazy(() => {
  const create = presetDocumentSchemas('create');
  return z.object({
    name: presetName(),
    config: create.config,
    permissions: create.permissions.optional(),
    ui: create.ui,
  });
});

/** PATCH: any part, at any depth; what is not given stays. */
export const patchPresetBody = lazy(() => {
  const partial = presetDocumentSchemas('partial');
  return z.object({
    name: presetName().optional(),
    config: partial.config.optional(),
    permissions: partial.permissions.optional(),
    ui: partial.ui.optional(),
  });
});

export const presetParams = lazy(() => z.object({ preset_id: z.uuid() }));

export const presetSchema = lazy(() => {
  const stored = presetDocumentSchemas('stored');
  return z.object({
    id: z.uuid(),
    name: z.string(),
    config: stored.config,
    // A fixture may add permission flags of its own (booleans); they are answered as given.
    permissions: stored.permissions.catchall(z.boolean()),
    ui: stored.ui,
    created_at: isoTime(),
    updated_at: isoTime(),
  });
});

export const presetListItemSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);
