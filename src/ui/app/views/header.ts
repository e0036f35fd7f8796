// Always in view: the organization, the emulator clock with its controls, the stream's state.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { control } from '../api';
import { time } from '../format';
import { act, openTab, selectOrg, setState, type State, type Tab } from '../store';

const STEPS: Array<[string, number]> = [
  ['+1 s', 1_000],
  ['+10 s', 10_000],
  ['+1 min', 60_000],
  ['+10 min', 600_000],
  ['+1 h', 3_600_000],
];

const TABS: Array<[Tab, string]> = [
  ['meetings', 'Meetings'],
  ['deliveries', 'Webhook deliveries'],
  ['journal', 'Request journal'],
  ['controls', 'Emulator'],
  ['events', 'Live events'],
];

function advance(ms: number) {
  return act('Advancing the clock', () => control.post('/_emulator/clock/advance', { ms }));
}

export function Header({ s }: { s: State }) {
  const [amount, setAmount] = useState('30');
  const [unit, setUnit] = useState('1000');
  const [target, setTarget] = useState('');
  return html`
    <header class="top">
      <div class="brand">
        <a href="/" class="logo">meetings-emulator</a>
        <span class=${`live ${s.live ? 'on' : 'off'}`} role="status" aria-live="polite">${s.live ? 'live' : 'reconnecting…'}</span>
      </div>
      <label class="org">
        Organization
        <select value=${s.orgId ?? ''} onChange=${(e: Event) => selectOrg((e.target as HTMLSelectElement).value)}>
          ${s.orgs.map((o) => html`<option value=${o.id}>${o.name} (${o.id.slice(0, 8)})</option>`)}
        </select>
      </label>
      ${(() => {
        const org = s.orgs.find((o) => o.id === s.orgId);
        return org && html`<span class="muted" data-testid="org-account">Account <code>${org.account_id}</code> · app <code>${org.id}</code></span>`;
      })()}
      <section class="clock" aria-label="Emulator clock">
        <div>
          <span class="now" data-testid="clock-now">${time(s.clock?.now)}</span>
          <span class="badge">${s.clock?.mode ?? ''} clock</span>
        </div>
        <div class="row" role="group" aria-label="Advance the clock">
          ${STEPS.map(([label, ms]) => html`<button type="button" onClick=${() => advance(ms)} aria-label=${`Advance the clock ${label.slice(1)}`}>${label}</button>`)}
          <form
            class="inline"
            onSubmit=${(e: Event) => {
              e.preventDefault();
              const ms = Math.round(Number(amount) * Number(unit));
              if (Number.isFinite(ms) && ms >= 0) void advance(ms);
            }}
          >
            <label
              >Advance by
              <input type="number" min="0" step="any" value=${amount} onInput=${(e: Event) => setAmount((e.target as HTMLInputElement).value)} size="5"
            /></label>
            <label class="sr-only" for="advance-unit">Unit</label>
            <select id="advance-unit" value=${unit} onChange=${(e: Event) => setUnit((e.target as HTMLSelectElement).value)}>
              <option value="1">ms</option>
              <option value="1000">s</option>
              <option value="60000">min</option>
              <option value="3600000">h</option>
            </select>
            <button type="submit">Advance</button>
          </form>
          <form
            class="inline"
            onSubmit=${(e: Event) => {
              e.preventDefault();
              if (target) void act('Setting the clock', () => control.put('/_emulator/clock', { now: target }));
            }}
          >
            <label
              >Set to
              <input
                type="text"
                placeholder=${s.clock?.now ?? '2026-01-01T00:00:00Z'}
                value=${target}
                onInput=${(e: Event) => setTarget((e.target as HTMLInputElement).value)}
                size="22"
            /></label>
            <button type="submit">Set</button>
          </form>
        </div>
      </section>
    </header>
    <nav class="tabs" aria-label="Views">
      ${TABS.map(
        ([tab, label]) =>
          html`<button type="button" class="tab" aria-current=${s.tab === tab ? 'page' : undefined} onClick=${() => openTab(tab)}>${label}</button>`,
      )}
    </nav>
    ${s.error && html`<p class="error" role="alert">${s.error} <button type="button" onClick=${() => setState({ error: null })}>Dismiss</button></p>`}
    ${s.notice && html`<p class="notice" role="status">${s.notice} <button type="button" onClick=${() => setState({ notice: null })}>Dismiss</button></p>`}
  `;
}
