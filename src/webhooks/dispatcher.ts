// Domain events → deliveries. Subscribes to the bus; for each event that maps to a webhook
// event, one delivery per receiving webhook: the organization's enabled webhooks subscribed to
// it (creation order), then the webhooks from configuration (every event, every organization).
import { nameBasedUuid } from '../core/ids.js';
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

/** The UUID namespace of the config webhooks' ids (a fixed value: changing it changes every id). */
const CONFIG_WEBHOOK_NAMESPACE = '4b0f2a6e-8c1d-4e57-9a3b-d2f6c7e81a05';

/**
 * Config webhooks have no registration, so their id (the `dyte-webhook-id` header) is a
 * name-based UUID of their position and URL: the same command line gives the same ids.
 */
export function configWebhooks(urls: readonly string[]): ConfigWebhook[] {
  return urls.map((url, i) => ({ id: nameBasedUuid(CONFIG_WEBHOOK_NAMESPACE, `${i}:${url}`), name: `config webhook ${i + 1}`, url }));
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
      const note = noteFor(e);
      for (const w of this.webhooks.subscribers(orgId, payload.event)) {
        this.outbox.enqueue({ orgId, webhookId: w.id, api: w.registeredThrough, url: w.url, event: payload.event, payload, note });
      }
      for (const w of this.fromConfig) {
        this.outbox.enqueue({ orgId, webhookId: w.id, url: w.url, event: payload.event, payload, note });
      }
    } catch (err) {
      this.logger?.error({ err, event: e.type }, 'webhook dispatch failed');
    }
  }
}

/**
 * Production's recording.statusUpdate carries no reason for ERRORED: the delivery log says it
 * instead (a failed upload to the app's storage, a forced failure), without changing the payload.
 */
function noteFor(e: DomainEvent): string | null {
  if (e.type !== 'recording.statusChanged' || e.recording.status !== 'ERRORED') return null;
  return e.recording.errorReason ? `Recording ERRORED: ${e.recording.errorReason}` : null;
}
