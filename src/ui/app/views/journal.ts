// The request journal: what clients sent the emulated APIs, each request linked to the webhook
// deliveries it caused; and the emulator's own uploads of recordings to apps' storage.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { control } from '../api';
import { json, shortId, time } from '../format';
import { act, setState, type State } from '../store';

export function Journal({ s }: { s: State }) {
  const [onlyOrg, setOnlyOrg] = useState(true);
  const entries = onlyOrg ? s.journal.filter((e) => e.org_id === null || e.org_id === s.orgId) : s.journal;
  return html`
    <section aria-labelledby="journal-title">
      <h2 id="journal-title">Request journal</h2>
      <div class="row">
        <label
          ><input type="checkbox" checked=${onlyOrg} onChange=${(e: Event) => setOnlyOrg((e.target as HTMLInputElement).checked)} /> Only this organization (and
          requests without one)</label
        >
        <button type="button" onClick=${() => act('Clearing the journal', () => control.del('/_emulator/requests'))}>Clear the journal</button>
      </div>
      ${
        entries.length === 0
          ? html`<p class="empty">No request yet. Requests to the v2, v1 and media APIs appear here; the control API's do not.</p>`
          : html`<table class="list" data-testid="journal">
              <thead>
                <tr>
                  <th scope="col">At</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Deliveries caused</th>
                </tr>
              </thead>
              <tbody>
                ${entries.map(
                  (e) =>
                    html`<tr>
                      <td>${time(e.at)}</td>
                      <td>
                        <details>
                          <summary>
                            <code>${e.method} ${e.path}</code>
                            ${e.account_id !== null && html` <span class="badge" data-testid="journal-account">account ${e.account_id} · app ${e.app_id ?? '—'}</span>`}
                            ${e.upload && html` <span class="badge" data-testid="journal-upload">upload of recording ${shortId(e.upload.recording_id)} (${e.upload.storage_type})</span>`}
                          </summary>
                          ${e.upload?.error && html`<p class="error">${e.upload.error}</p>`}
                          <p class="muted">${e.id}${e.org_id ? ` · organization ${shortId(e.org_id)}` : ''}</p>
                          ${Object.keys(e.query).length > 0 && html`<pre>${json(e.query)}</pre>`} ${e.body !== null && html`<pre>${json(e.body)}</pre>`}
                        </details>
                      </td>
                      <td><span class=${`badge ${e.status < 400 && e.upload?.outcome !== 'failed' ? 'done' : 'bad'}`}>${e.status}</span></td>
                      <td>${e.duration_ms} ms</td>
                      <td>
                        ${e.deliveries.map(
                          (id) =>
                            html`<button
                              type="button"
                              class="link"
                              onClick=${() => setState({ tab: 'deliveries', deliveryId: id })}
                              aria-label=${`Delivery ${id}`}
                            >
                              ${shortId(id)}
                            </button> `,
                        )}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>
  `;
}
