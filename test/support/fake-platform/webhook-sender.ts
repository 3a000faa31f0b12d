// Webhook deliveries as the platform sends them: asynchronously, one after another, signed with
// HMAC-SHA256 (and SHA-1) of the raw body, each with a fresh delivery id; not retried. A test
// can drop chosen deliveries (to exercise polling) and read back everything sent.
import { createHmac, randomUUID } from 'node:crypto';
import { stringifyJson } from '../../../src/json/exact-json.ts';

export interface WebhookSubscription {
  url: string;
  secret: string;
  /** event names to send; every event when absent */
  events?: string[];
  /**
   * The payload as this subscriber receives it (an app's adds its `installation`), or null when
   * it does not receive this one (an app not installed on the repository).
   */
  decorate?: (payload: Record<string, unknown>) => Record<string, unknown> | null;
}

export interface Delivery {
  id: string;
  event: string;
  action: string | undefined;
  payload: Record<string, unknown>;
  /** dropped by the test's `drop` rule: never sent */
  dropped: boolean;
  /** per subscription: the receiver's status, or the error that stopped the delivery */
  results: { url: string; status?: number; error?: string }[];
}

const TIMEOUT_MS = 10_000;

export class WebhookSender {
  readonly subscriptions: WebhookSubscription[] = [];
  readonly deliveries: Delivery[] = [];
  /** Deliveries for which this answers true are recorded as dropped and not sent. */
  drop: (delivery: Delivery) => boolean = () => false;
  private queue: Promise<void> = Promise.resolve();
  private readonly hookId = Math.floor(Math.random() * 1e9);

  subscribe(subscription: WebhookSubscription): void {
    this.subscriptions.push(subscription);
  }

  send(event: string, payload: Record<string, unknown>): Delivery {
    const delivery: Delivery = { id: randomUUID(), event, action: typeof payload.action === 'string' ? payload.action : undefined, payload, dropped: false, results: [] };
    delivery.dropped = this.drop(delivery);
    this.deliveries.push(delivery);
    if (!delivery.dropped) this.queue = this.queue.then(() => this.deliver(delivery));
    return delivery;
  }

  /** Resolves once every delivery queued so far has been answered (or has failed). */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.queue) {
      seen = this.queue;
      await seen;
    }
  }

  /** Deliveries of `event` (and `action`), in the order they were sent. */
  sent(event: string, action?: string): Delivery[] {
    return this.deliveries.filter((d) => d.event === event && (action === undefined || d.action === action));
  }

  private async deliver(delivery: Delivery): Promise<void> {
    for (const subscription of this.subscriptions) {
      if (subscription.events && !subscription.events.includes(delivery.event)) continue;
      const payload = subscription.decorate ? subscription.decorate(delivery.payload) : delivery.payload;
      if (!payload) continue;
      const body = stringifyJson(payload);
      try {
        const response = await fetch(subscription.url, {
          method: 'POST',
          headers: this.headers(delivery, payload, subscription.secret, body),
          body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.arrayBuffer();
        delivery.results.push({ url: subscription.url, status: response.status });
      } catch (error) {
        delivery.results.push({ url: subscription.url, error: (error as Error).message });
      }
    }
  }

  private headers(delivery: Delivery, payload: Record<string, unknown>, secret: string, body: string): Record<string, string> {
    const installation = payload.installation as { id?: unknown } | undefined;
    const repository = payload.repository as { id?: unknown } | undefined;
    return {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake-platform',
      'x-github-event': delivery.event,
      'x-github-delivery': delivery.id,
      'x-github-hook-id': String(this.hookId),
      'x-github-hook-installation-target-type': installation ? 'integration' : 'repository',
      'x-github-hook-installation-target-id': String(installation?.id ?? repository?.id ?? ''),
      'x-hub-signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    };
  }
}
