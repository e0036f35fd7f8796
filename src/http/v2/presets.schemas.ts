// v2 preset wire schemas: the request bodies as production's document requires them, the
// answered document (every field present) and the list item.
import { z } from 'zod';
import { presetDocumentSchemas } from '../../domain/presets/preset-document.js';
import { LIMITS } from '../limits.js';
import { isoTime } from './schemas.js';

const presetName = z.string().min(1).max(LIMITS.nameMax);
const create = presetDocumentSchemas('create');
const partial = presetDocumentSchemas('partial');
const stored = presetDocumentSchemas('stored');

/** POST: name, config and ui (with every design token) are required; permissions, when given, whole. */
export const createPresetBody = z.object({
  name: presetName,
  config: create.config,
  permissions: create.permissions.optional(),
  ui: create.ui,
});

/** PATCH: any part, at any depth; what is not given stays. */
export const patchPresetBody = z.object({
  name: presetName.optional(),
  config: partial.config.optional(),
  permissions: partial.permissions.optional(),
  ui: partial.ui.optional(),
});

export const presetParams = z.object({ preset_id: z.uuid() });

export const presetSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  config: stored.config,
  // A fixture may add permission flags of its own (booleans); they are answered as given.
  permissions: stored.permissions.catchall(z.boolean()),
  ui: stored.ui,
  created_at: isoTime,
  updated_at: isoTime,
});

export const presetListItemSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
});
