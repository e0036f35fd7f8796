// Webhook deliveries: each with its payload, the headers every attempt sends, every attempt,
// whether the signature verifies with the published key (checked here, in the browser, as a
// receiver would), and a redeliver button.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { control } from '../api';
import { json, shortId, time } from '../format';
import { act, setState, type State } from '../store';
import type { Delivery } from '../types';

interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

type Verdict = { state: 'checking' } | { state: 'valid' } | { state: 'invalid' } | { state: 'unavailable'; why: string };

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** RSA-SHA256 (PKCS#1 v1.5) over the raw body, with the key of /.well-known/webhooks.json. */
async function verify(request: SentRequest): Promise<Verdict> {
  if (!globalThis.crypto?.subtle) return { state: 'unavailable', why: 'this page is not a secure context (open it on localhost or 127.0.0.1)' };
  const keys = await control.get<{ keys: JsonWebKey[] }>('/.well-known/webhooks.json');
  const signature = request.headers['dyte-signature'];
  if (!signature) return { state: 'invalid' };
  const body = new TextEncoder().encode(request.body);
  for (const jwk of keys.keys) {
    const { kty, n, e } = jwk;
    const key = await crypto.subtle.importKey('jwk', { kty, n, e }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    if (await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, base64Bytes(signature), body)) return { state: 'valid' };
  }
  return { state: 'invalid' };
}

function DeliveryDetail({ d }: { d: Delivery }) {
  const [request, setRequest] = useState<SentRequest | null>(null);
  const [verdict, setVerdict] = useState<Verdict>({ state: 'checking' });
  useEffect(() => {
    let gone = false;
    setVerdict({ state: 'checking' });
    void control
      .get<SentRequest>(`/_emulator/webhooks/deliveries/${d.id}/request`)
      .then(async (r) => {
        if (gone) return;
        setRequest(r);
        const v = await verify(r);
        if (!gone) setVerdict(v);
      })
      .catch((err: Error) => !gone && setVerdict({ state: 'unavailable', why: err.message }));
    return () => {
      gone = true;
    };
  }, [d.id]);
  const verdictText =
    verdict.state === 'checking'
      ? 'checking…'
      : verdict.state === 'valid'
        ? 'verifies with the published key'
        : verdict.state === 'invalid'
          ? 'does NOT verify with the published key'
          : `cannot be checked: ${verdict.why}`;
  return html`
    <section class="detail" aria-labelledby="delivery-title" data-testid="delivery-detail">
      <h2 id="delivery-title">${d.event} <code>${d.id}</code> <span class=${`badge ${d.status}`}>${d.status}</span></h2>
      <p class="muted">
        To ${d.url} · created
        ${time(d.created_at)}${d.next_attempt_at ? ` · next attempt ${time(d.next_attempt_at)}` : ''}${d.failure_reason ? ` · ${d.failure_reason}` : ''}
      </p>
      ${d.note && html`<p class="error" data-testid="delivery-note">${d.note}</p>`}
      <p>Signature: <strong class=${`verdict ${verdict.state}`} data-testid="signature-verdict">${verdictText}</strong></p>
      <button type="button" onClick=${() => act('Redelivering', () => control.post(`/_emulator/webhooks/deliveries/${d.id}/redeliver`))}>Redeliver</button>
      <h3>Attempts</h3>
      <table class="list" data-testid="attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">At</th>
            <th scope="col">Trigger</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          ${d.attempts.map(
            (a, i) =>
              html`<tr>
                <td>${i + 1}</td>
                <td>${time(a.at)}</td>
                <td>${a.trigger}</td>
                <td>${a.status_code ?? '—'}</td>
                <td>${a.duration_ms} ms</td>
                <td>${a.error ?? ''}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h3>Headers</h3>
      ${
        request
          ? html`<dl class="headers">
              ${Object.entries(request.headers).map(
                ([k, v]) =>
                  html`<dt>${k}</dt>
                    <dd><code>${v}</code></dd>`,
              )}
            </dl>`
          : html`<p class="muted">…</p>`
      }
      <h3>Payload</h3>
      <pre>${json(d.payload)}</pre>
    </section>
  `;
}

export function Deliveries({ s }: { s: State }) {
  const selected = s.deliveries.find((d) => d.id === s.deliveryId);
  return html`
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      ${s.overview && s.overview.webhooks.length === 0 && html`<p class="empty">This organization has no webhook: register one with POST /v2/webhooks to see deliveries here.</p>`}
      ${
        s.deliveries.length === 0
          ? html`<p class="empty">No delivery yet.</p>`
          : html`<table class="list" data-testid="deliveries">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Id</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                ${s.deliveries.map(
                  (d) =>
                    html`<tr class=${d.id === s.deliveryId ? 'selected' : ''} data-delivery-id=${d.id}>
                      <td><button type="button" class="link" onClick=${() => setState({ deliveryId: d.id })}>${d.event}</button></td>
                      <td><code>${shortId(d.id)}</code></td>
                      <td><span class=${`badge ${d.status}`}>${d.status}</span></td>
                      <td>${d.attempts.length}</td>
                      <td>${time(d.created_at)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>
    ${selected && html`<${DeliveryDetail} key=${selected.id} d=${selected} />`}
  `;
}
