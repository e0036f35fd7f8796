// The event stream as it comes, newest first: what the dashboard itself reacts to.
import { html } from 'htm/preact';
import { json } from '../format';
import type { State } from '../store';

function summary(kind: string, data: Record<string, unknown>): string {
  switch (kind) {
    case 'domain':
      return `${String(data.type)}${data.status ? ` → ${String(data.status)}` : ''}`;
    case 'delivery':
      return `${String(data.event)} ${String(data.status)} (${(data.attempts as unknown[]).length} attempts)`;
    case 'upload':
      return `${String(data.storage_type)} upload of ${String(data.recording_id)} ${String(data.outcome).replace('_', ' ')}`;
    case 'request':
      return `${String(data.method)} ${String(data.path)} → ${String(data.status)}`;
    case 'clock':
      return `clock at ${String(data.now)}`;
    default:
      return 'state reset or imported';
  }
}

export function Events({ s }: { s: State }) {
  const recent = s.events.slice(-300).reverse();
  return html`
    <section aria-labelledby="events-title">
      <h2 id="events-title">Live events</h2>
      <p class="muted">From <code>GET /_emulator/events</code> (server-sent events); the newest first.</p>
      <ol class="events" reversed>
        ${recent.map(
          (e) =>
            html`<li>
              <details>
                <summary><span class="badge">${e.kind}</span> ${summary(e.kind, e.data)}</summary>
                <pre>${json(e.data)}</pre>
              </details>
            </li>`,
        )}
      </ol>
    </section>
  `;
}
