// The emulator itself: organizations (create, reset, the API key on request), the simulator
// policy, fault rules, and the state (download an export, upload one to import, reset).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKeyOf, control, forgetKeys, rememberKey } from '../api';
import { json } from '../format';
import { act, setState, type State } from '../store';
import type { FaultRule } from '../types';

type Policy = Record<'recording' | 'livestream', Record<string, string | number>>;

const CHOICES: Record<string, string[]> = { mode: ['auto', 'manual'], fail_at: ['start', 'upload'] };

function Organizations({ s }: { s: State }) {
  const [name, setName] = useState('');
  const [shown, setShown] = useState<Record<string, string>>({});
  return html`
    <section class="card" aria-labelledby="orgs-title">
      <h3 id="orgs-title">Organizations</h3>
      <form
        class="inline"
        onSubmit=${async (e: Event) => {
          e.preventDefault();
          await act('Creating an organization', async () => {
            const org = await control.post<{ id: string; name: string; api_key: string }>('/_emulator/orgs', name ? { name } : {});
            rememberKey(org.id, org.api_key);
            // Asked for by creating it: the answer is the one place the control API shows the key.
            setShown((k) => ({ ...k, [org.id]: org.api_key }));
          });
          setName('');
        }}
      >
        <label>Name <input value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} placeholder="worker-1" /></label>
        <button type="submit">Create organization</button>
      </form>
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id (app id)</th>
            <th scope="col">Account</th>
            <th scope="col">API key</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          ${s.orgs.map(
            (o) =>
              html`<tr>
                <td>${o.name}</td>
                <td><code>${o.id}</code></td>
                <td><code>${o.account_id}</code></td>
                <td>
                  ${
                    shown[o.id]
                      ? html`<code data-testid="api-key">${shown[o.id]}</code>
                          <button type="button" onClick=${() => setShown(({ [o.id]: _gone, ...rest }) => rest)}>Hide</button>`
                      : html`<button
                          type="button"
                          onClick=${() => act('Reading the API key', async () => setShown({ ...shown, [o.id]: await apiKeyOf(o.id) }))}
                        >
                          Show API key
                        </button>`
                  }
                </td>
                <td>
                  <button
                    type="button"
                    onClick=${() => act(`Resetting ${o.name}`, () => control.post(`/_emulator/orgs/${o.id}/reset`), `${o.name} is back to its fixture state.`)}
                  >
                    Reset
                  </button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>
  `;
}

function Simulator() {
  const [policy, setPolicy] = useState<Policy | null>(null);
  const load = () => void control.get<Policy>('/_emulator/simulator').then(setPolicy);
  useEffect(load, []);
  if (!policy)
    return html`<section class="card">
      <h3>Simulator policy</h3>
      <p class="muted">…</p>
    </section>`;
  const field = (part: 'recording' | 'livestream', key: string, value: string | number) => {
    const set = (v: string | number) => setPolicy({ ...policy, [part]: { ...policy[part], [key]: v } });
    const id = `sim-${part}-${key}`;
    const choices = CHOICES[key];
    return html`<div class="field">
      <label for=${id}>${key.replace(/_/g, ' ')}</label>
      ${
        choices
          ? html`<select id=${id} value=${String(value)} onChange=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
              ${choices.map((c) => html`<option value=${c}>${c}</option>`)}
            </select>`
          : html`<input id=${id} type="number" min="0" value=${value} onInput=${(e: Event) => set(Number((e.target as HTMLInputElement).value))} />`
      }
    </div>`;
  };
  return html`
    <section class="card" aria-labelledby="sim-title">
      <h3 id="sim-title">Simulator policy</h3>
      <form
        onSubmit=${(e: Event) => (e.preventDefault(), act('Saving the simulator policy', () => control.patch('/_emulator/simulator', policy), 'Simulator policy saved.').then(load))}
      >
        ${(['recording', 'livestream'] as const).map(
          (part) =>
            html`<fieldset>
              <legend>${part}</legend>
              ${Object.entries(policy[part]).map(([k, v]) => field(part, k, v))}
            </fieldset>`,
        )}
        <button type="submit">Save the policy</button>
      </form>
    </section>
  `;
}

function Faults() {
  const [rules, setRules] = useState<FaultRule[]>([]);
  const [draft, setDraft] = useState({ method: '', path: '/v2/meetings', status: '503', delay_ms: '', drop: false, count: '1' });
  const load = () => void control.get<FaultRule[]>('/_emulator/faults').then(setRules);
  useEffect(load, []);
  const input = (key: 'path' | 'status' | 'delay_ms' | 'count', label: string, type = 'text') =>
    html`<label
      >${label} <input type=${type} value=${draft[key]} onInput=${(e: Event) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value })} size="8"
    /></label>`;
  const add = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { path: draft.path, count: Number(draft.count || 1) };
    if (draft.method) body.method = draft.method;
    if (draft.status) body.status = Number(draft.status);
    if (draft.delay_ms) body.delay_ms = Number(draft.delay_ms);
    if (draft.drop) body.drop = true;
    void act('Adding a fault rule', () => control.post('/_emulator/faults', body)).then(load);
  };
  return html`
    <section class="card" aria-labelledby="faults-title">
      <h3 id="faults-title">Fault rules</h3>
      <form class="inline" onSubmit=${add}>
        <label
          >Method
          <select value=${draft.method} onChange=${(e: Event) => setDraft({ ...draft, method: (e.target as HTMLSelectElement).value })}>
            ${['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option value=${m}>${m || 'any'}</option>`)}
          </select></label
        >
        ${input('path', 'Path')} ${input('status', 'Status', 'number')} ${input('delay_ms', 'Delay (ms)', 'number')}
        <label
          ><input type="checkbox" checked=${draft.drop} onChange=${(e: Event) => setDraft({ ...draft, drop: (e.target as HTMLInputElement).checked })} /> Drop
          the connection</label
        >
        ${input('count', 'Times', 'number')}
        <button type="submit">Add the rule</button>
      </form>
      ${
        rules.length === 0
          ? html`<p class="empty">No fault rule armed.</p>`
          : html`<table class="list">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Method</th>
                  <th scope="col">Path</th>
                  <th scope="col">Effect</th>
                  <th scope="col">Remaining</th>
                  <th scope="col">Matched</th>
                </tr>
              </thead>
              <tbody>
                ${rules.map(
                  (r) =>
                    html`<tr>
                      <td><code>${r.id}</code></td>
                      <td>${r.method ?? 'any'}</td>
                      <td><code>${r.path}</code></td>
                      <td>
                        ${[r.status !== null && `answers ${r.status}`, r.delay_ms > 0 && `waits ${r.delay_ms} ms`, r.drop && 'drops'].filter(Boolean).join(', ')}
                      </td>
                      <td>${r.remaining}</td>
                      <td>${r.matched}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      <button type="button" onClick=${() => act('Clearing the fault rules', () => control.del('/_emulator/faults')).then(load)}>Clear every rule</button>
    </section>
  `;
}

function StatePanel() {
  const download = () =>
    act('Exporting the state', async () => {
      const doc = await control.get<unknown>('/_emulator/state');
      const url = URL.createObjectURL(new Blob([json(doc)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'emulator-state.json';
      a.click();
      URL.revokeObjectURL(url);
    });
  const upload = (e: Event) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    void act(
      'Importing the state',
      async () => {
        const doc = JSON.parse(await file.text()) as unknown;
        await control.put('/_emulator/state', doc);
        forgetKeys();
        setState({ tokens: {}, meetingId: null, deliveryId: null });
      },
      `Imported ${file.name}.`,
    );
  };
  return html`
    <section class="card" aria-labelledby="state-title">
      <h3 id="state-title">State</h3>
      <p class="muted">An export holds everything, the organizations' API keys and the signing keys included: keep it like a secret.</p>
      <div class="row">
        <button type="button" onClick=${download}>Download an export</button>
        <label>Import a state file <input type="file" accept="application/json,.json" onChange=${upload} /></label>
        <button
          type="button"
          onClick=${() =>
            confirm('Return everything to the fixtures?') &&
            act(
              'Resetting',
              async () => {
                await control.post('/_emulator/reset');
                forgetKeys();
                setState({ tokens: {}, meetingId: null, deliveryId: null });
              },
              'Everything is back to the fixtures.',
            )}
        >
          Reset everything
        </button>
      </div>
    </section>
  `;
}

export function Controls({ s }: { s: State }) {
  return html`
    <section aria-labelledby="controls-title">
      <h2 id="controls-title">Emulator</h2>
      <div class="grid">
        <${Organizations} s=${s} />
        <${StatePanel} />
        <${Simulator} />
        <${Faults} />
      </div>
    </section>
  `;
}
