// Webhook rules, pure: who gets an event. No I/O here.
import { MAX_WEBHOOKS_PER_ORGANIZATION, WEBHOOK_EVENTS, type Webhook, type WebhookEventName } from '../models.js';

export { MAX_WEBHOOKS_PER_ORGANIZATION, WEBHOOK_EVENTS };

/** Only subscribed events of enabled webhooks are sent (docs/webhooks.md). */
export function wantsEvent(webhook: Pick<Webhook, 'enabled' | 'events'>, event: WebhookEventName): boolean {
  return webhook.enabled && webhook.events.includes(event);
}
