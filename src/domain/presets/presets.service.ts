// Presets, per organization (GET|POST /v2/presets, GET|PATCH|PUT|DELETE /v2/presets/{preset_id}).
// Fixture presets and created ones are the same thing: a whole production document, found by
// name when a participant is added with it, its permissions applied to that participant's token.
import { toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { PresetFixture } from '../../store/fixtures.js';
import type { OrgData } from '../../store/store.js';
import { orgData, type DomainContext } from '../context.js';
import type { Preset } from '../models.js';
import { paginate, type Page, type PageRequest } from '../paging.js';
import { patchDocument, presetDocument, type PresetDocument, type PresetDocumentPatch } from './preset-document.js';

export interface PresetInput extends PresetDocumentPatch {
  name: string;
}

export type PresetPatch = PresetDocumentPatch & { name?: string };

/** A fixture's preset as a whole document; times it does not carry are `now`. */
export function presetFromFixture(p: PresetFixture, now: number): Preset {
  // Stryker disable next-line ConditionalExpression: a view_type holding undefined is treated as not given, and the default fills it either way.
  const config = p.view_type === undefined ? p.config : { view_type: p.view_type, ...p.config };
  return {
    id: p.id,
    name: p.name,
    // A fixture's own permission flags (booleans) are kept beside production's.
    ...presetDocument({ config, permissions: p.permissions, ui: p.ui }),
    createdAt: p.created_at === undefined ? now : Date.parse(p.created_at),
    updatedAt: p.updated_at === undefined ? now : Date.parse(p.updated_at),
  };
}

/** The preset as a fixtures document holds it (state export, an organization's starting presets). */
export function presetToFixture(p: Preset): PresetFixture {
  return structuredClone({
    id: p.id,
    name: p.name,
    config: p.config,
    permissions: p.permissions,
    ui: p.ui,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  }) as unknown as PresetFixture;
}

export class PresetsService {
  constructor(private readonly ctx: DomainContext) {}

  /** In creation order (the fixtures' first), as production's list carries no order of its own. */
  list(orgId: string, page: PageRequest): Page<Preset> {
    const data = orgData(this.ctx, orgId);
    return paginate([...data.presets.keys()], (id) => data.presets.get(id), page, { newestFirst: false });
  }

  get(orgId: string, id: string): Preset {
    const preset = orgData(this.ctx, orgId).presets.get(id);
    if (!preset) throw errors.notFound('preset', id);
    return preset;
  }

  create(orgId: string, input: PresetInput): Preset {
    const data = orgData(this.ctx, orgId);
    this.assertNameFree(data, input.name, undefined);
    const now = this.ctx.clock.now();
    const { name, ...document } = input;
    const preset: Preset = { id: this.ctx.ids.uuid(), name, ...presetDocument(document), createdAt: now, updatedAt: now };
    data.putPreset(preset);
    return preset;
  }

  /**
   * PATCH: only the given fields change, at any depth. A new name follows the preset to the
   * participants added with it (their `preset_name` names the preset they have).
   */
  update(orgId: string, id: string, patch: PresetPatch): Preset {
    const current = this.get(orgId, id);
    const { name, ...document } = patch;
    return this.save(
      orgId,
      current,
      name ?? current.name,
      patchDocument({ config: current.config, permissions: current.permissions, ui: current.ui }, document),
    );
  }

  /**
   * PUT: the whole document again, as POST takes it; what is not given returns to its default.
   * The id, the creation time and the participants added with the preset stay.
   */
  replace(orgId: string, id: string, input: PresetInput): Preset {
    const current = this.get(orgId, id);
    const { name, ...document } = input;
    return this.save(orgId, current, name, presetDocument(document));
  }

  /** The one way a preset changes: its name stays unique and follows it to its participants. */
  private save(orgId: string, current: Preset, name: string, document: PresetDocument): Preset {
    const data = orgData(this.ctx, orgId);
    // Stryker disable next-line ConditionalExpression: with the preset's own name assertNameFree finds the preset itself and lets it pass.
    if (name !== current.name) this.assertNameFree(data, name, current.id);
    const next: Preset = { id: current.id, name, ...document, createdAt: current.createdAt, updatedAt: this.ctx.clock.now() };
    data.putPreset(next);
    // Stryker disable next-line ConditionalExpression: without a rename each participant is written back with the name it already has.
    if (next.name !== current.name) {
      for (const p of data.participants.values()) if (p.presetId === current.id) data.putParticipant({ ...p, presetName: next.name });
    }
    return next;
  }

  /**
   * DELETE answers the deleted preset. Participants added with it stay, still naming it (emulator
   * decision, docs/limits-and-decisions.md); their tokens stop authorizing, since the
   * permissions they carried are gone, until a PATCH gives them another preset.
   */
  remove(orgId: string, id: string): Preset {
    const preset = this.get(orgId, id);
    orgData(this.ctx, orgId).deletePreset(preset);
    return preset;
  }

  private assertNameFree(data: OrgData, name: string, self: string | undefined): void {
    const holder = data.presetsByName.get(name);
    // Stryker disable next-line ConditionalExpression: names are unique per organization, so the holder of another name is never the preset itself.
    if (holder && holder.id !== self) throw errors.presetNameTaken(name, holder.id);
  }
}
