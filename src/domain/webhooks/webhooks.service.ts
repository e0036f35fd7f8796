// Webhook registrations, per organization (docs/webhooks.md): create, list, fetch, replace, update,
// delete. Who receives an event is decided here too (`subscribers`); sending is the outbox's job.
import { errors } from '../../core/errors.js';
import type { OrgData } from '../../store/store.js';
import { orgData, type DomainContext } from '../context.js';
import type { Webhook, WebhookApi, WebhookEventName } from '../models.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';
import { MAX_WEBHOOKS_PER_ORGANIZATION, wantsEvent } from './webhook-rules.js';

export interface WebhookInput {
  name: string;
  url: string;
  events: WebhookEventName[];
  enabled?: boolean;
}

export type WebhookPatch = Partial<WebhookInput>;

/** A new registration also says which API made it (v2 unless told); a PUT or PATCH never changes that. */
export interface NewWebhook extends WebhookInput {
  registeredThrough?: WebhookApi;
}

export class WebhooksService implements OrgMember {
  constructor(private readonly ctx: DomainContext) {}

  create(orgId: string, input: NewWebhook): Webhook {
    const data = orgData(this.ctx, orgId);
    if (data.webhooks.size >= MAX_WEBHOOKS_PER_ORGANIZATION) throw errors.webhookLimit(MAX_WEBHOOKS_PER_ORGANIZATION);
    this.assertUrlFree(data, input.url, undefined);
    const now = this.ctx.clock.now();
    const webhook: Webhook = {
      id: this.ctx.ids.uuid(),
      orgId,
      name: input.name,
      url: input.url,
      events: [...input.events],
      enabled: input.enabled ?? true,
      registeredThrough: input.registeredThrough ?? 'v2',
      createdAt: now,
      updatedAt: now,
    };
    data.webhooks.set(webhook.id, webhook);
    return webhook;
  }

  /** In creation order; not paged (docs/webhooks.md). */
  list(orgId: string): Webhook[] {
    return [...orgData(this.ctx, orgId).webhooks.values()];
  }

  get(orgId: string, id: string): Webhook {
    const webhook = orgData(this.ctx, orgId).webhooks.get(id);
    if (!webhook) throw errors.notFound('webhook', id);
    return webhook;
  }

  /** Undefined when the organization or the webhook is gone (deliveries check before a retry). */
  find(orgId: string, id: string): Webhook | undefined {
    return this.ctx.store.org(orgId)?.webhooks.get(id);
  }

  /** PUT: name, url and events are given; `enabled` returns to its default (true) when absent. */
  replace(orgId: string, id: string, input: WebhookInput): Webhook {
    return this.save(orgId, id, { name: input.name, url: input.url, events: input.events, enabled: input.enabled ?? true });
  }

  /** PATCH: only the given fields change. */
  update(orgId: string, id: string, patch: WebhookPatch): Webhook {
    return this.save(orgId, id, patch);
  }

  /** DELETE answers the deleted object (docs/webhooks.md). */
  remove(orgId: string, id: string): Webhook {
    const webhook = this.get(orgId, id);
    orgData(this.ctx, orgId).webhooks.delete(id);
    return webhook;
  }

  /** The organization's enabled webhooks subscribed to `event`, in creation order. */
  subscribers(orgId: string, event: WebhookEventName): Webhook[] {
    const data = this.ctx.store.org(orgId);
    if (!data) return [];
    const out: Webhook[] = [];
    for (const w of data.webhooks.values()) if (wantsEvent(w, event)) out.push(w);
    return out;
  }

  /** The organization's fixture webhooks, validated by the fixtures schema (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    const now = this.ctx.clock.now();
    for (const f of fixtureOrg.webhooks ?? []) {
      const webhook: Webhook = {
        id: f.id ?? this.ctx.ids.uuid(),
        orgId: data.org.id,
        name: f.name,
        url: f.url,
        events: [...f.events],
        enabled: f.enabled,
        registeredThrough: f.registered_through ?? 'v2',
        // A state export keeps the webhook's own times.
        createdAt: f.created_at === undefined ? now : Date.parse(f.created_at),
        updatedAt: f.updated_at === undefined ? now : Date.parse(f.updated_at),
      };
      data.webhooks.set(webhook.id, webhook);
    }
  }

  private save(orgId: string, id: string, patch: WebhookPatch): Webhook {
    const data = orgData(this.ctx, orgId);
    const current = this.get(orgId, id);
    if (patch.url !== undefined) this.assertUrlFree(data, patch.url, id);
    const next: Webhook = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.events !== undefined ? { events: [...patch.events] } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      updatedAt: this.ctx.clock.now(),
    };
    data.webhooks.set(id, next);
    return next;
  }

  /** Emulator decision, after production's v1 rule ("the URL field must be a unique URL"). */
  private assertUrlFree(data: OrgData, url: string, exceptId: string | undefined): void {
    for (const w of data.webhooks.values()) {
      if (w.url === url && w.id !== exceptId) throw errors.webhookUrlTaken(url, w.id);
    }
  }
}
