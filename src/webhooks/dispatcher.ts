// Domain events → deliveries. Subscribes to the bus; for each event that maps to a webhook
// event, one delivery per receiving webhook: the organization's enabled webhooks subscribed to
// it (creation order), then the webhooks from configuration (every event, every organization).
import { createHash } from 'node:crypto';
import type { DomainEvent, DomainEventBus } from '../domain/events.js';
import type { WebhooksService } from '../domain/webhooks/webhooks.service.js';
import type { Logger } from '../logger.js';
import type { Delivery, DeliveryTarget, Outbox } from './outbox.js';
import { webhookPayloadFor } from './payloads.js';

/** A webhook from `--webhook-url` / EMULATOR_WEBHOOK_URLS: every event of every organization. */
export interface ConfigWebhook {
  id: string;
  name: string;
  url: string;
}

/**
 * Config webhooks have no registration, so their id (the `dyte-webhook-id` header) is derived
 * from their position and URL: the same command line gives the same ids (UUID layout, version 8).
 */
export function configWebhooks(urls: readonly string[]): ConfigWebhook[] {
  return urls.map((url, i) => {
    const hex = createHash('sha256').update(`config-webhook:${i}:${url}`).digest('hex');
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    return { id, name: `config webhook ${i + 1}`, url };
  });
}

/**
 * Where each automatic attempt goes: the webhook's current URL (a fixed URL reaches pending
 * retries). A webhook deleted or disabled since stops its pending deliveries (emulator decision).
 */
export function targetResolver(webhooks: WebhooksService, fromConfig: readonly ConfigWebhook[]): (d: Delivery) => DeliveryTarget {
  const byId = new Map(fromConfig.map((w) => [w.id, w]));
  return (d) => {
    const configured = byId.get(d.webhookId);
    if (configured) return { url: configured.url };
    const w = d.orgId === null ? undefined : webhooks.find(d.orgId, d.webhookId);
    if (!w) return { stop: 'The webhook was deleted; no further attempts' };
    if (!w.enabled) return { stop: 'The webhook was disabled; no further attempts' };
    return { url: w.url };
  };
}

export class WebhookDispatcher {
  constructor(
    bus: DomainEventBus,
    private readonly webhooks: WebhooksService,
    private readonly outbox: Outbox,
    readonly fromConfig: readonly ConfigWebhook[],
    private readonly logger?: Logger,
  ) {
    bus.subscribe((e) => this.on(e));
  }

  private on(e: DomainEvent): void {
    // A webhook problem must never fail the API call that published the event.
    try {
      const payload = webhookPayloadFor(e);
      if (!payload) return;
      const orgId = e.org.id;
      for (const w of this.webhooks.subscribers(orgId, payload.event)) {
        this.outbox.enqueue({ orgId, webhookId: w.id, url: w.url, event: payload.event, payload });
      }
      for (const w of this.fromConfig) {
        this.outbox.enqueue({ orgId, webhookId: w.id, url: w.url, event: payload.event, payload });
      }
    } catch (err) {
      this.logger?.error({ err, event: e.type }, 'webhook dispatch failed');
    }
  }
}
