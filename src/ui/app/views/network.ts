// A meeting's network, as the control API's network scenarios make it: who is connected or
// reconnecting (and until when they count as present), what is in force for the meeting and for
// each participant, what their media goes through on the media plane; and a form that sets a
// scenario (a socket dropped or refused, media cut, lost, delayed or capped) or clears them.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { control } from '../api';
import { time } from '../format';
import { act } from '../store';
import type { FeedEvent, Meeting, MeetingNetwork, NetworkPath, NetworkScenario } from '../types';

const SCENARIOS = ['signal-drop', 'signal-outage', 'media-drop', 'loss', 'latency', 'bandwidth', 'clear'] as const;
type ScenarioName = (typeof SCENARIOS)[number];
/** The figure each degrading scenario takes. */
const FIGURES: Partial<Record<ScenarioName, { field: 'percent' | 'ms' | 'kbps'; label: string; value: string }>> = {
  loss: { field: 'percent', label: 'Loss (%)', value: '10' },
  latency: { field: 'ms', label: 'Latency (ms)', value: '300' },
  bandwidth: { field: 'kbps', label: 'Bandwidth (kbit/s)', value: '200' },
};
const LASTING: readonly ScenarioName[] = ['signal-outage', 'media-drop', 'loss', 'latency', 'bandwidth'];

/** A scenario in a few words: `loss 10% up for 30 s`. */
export function scenarioText(s: NetworkScenario): string {
  const figure = s.percent !== null ? ` ${s.percent}%` : s.ms !== null ? ` ${s.ms} ms` : s.kbps !== null ? ` ${s.kbps} kbit/s` : '';
  const direction = s.direction ? ` ${s.direction}` : '';
  const until = s.ends_at ? ` until ${time(s.ends_at)}` : s.paths_cut !== null ? ` (${s.paths_cut} path${s.paths_cut === 1 ? '' : 's'} cut)` : '';
  return `${s.scenario}${figure}${direction}${until}`;
}

function pathText(p: NetworkPath): string {
  const parts = [
    p.loss_percent > 0 && `${p.loss_percent}% lost`,
    p.latency_ms > 0 && `+${p.latency_ms} ms`,
    p.bandwidth_kbps !== null && `≤ ${p.bandwidth_kbps} kbit/s`,
  ];
  return parts.filter(Boolean).join(', ') || 'clear';
}

export function Network({ meeting, events }: { meeting: Meeting; events: FeedEvent[] }) {
  const [net, setNet] = useState<MeetingNetwork | null>(null);
  const [target, setTarget] = useState('');
  const [scenario, setScenario] = useState<ScenarioName>('signal-drop');
  const [figure, setFigure] = useState('');
  const [direction, setDirection] = useState('both');
  const [seconds, setSeconds] = useState('');
  // Read again whenever the meeting's network, presence or clock moves (a scenario's end is on the clock).
  const told = events.filter((e) => e.kind === 'clock' || (e.kind === 'domain' && e.data.meeting_id === meeting.id)).length;
  useEffect(() => {
    let live = true;
    void control
      .get<MeetingNetwork>(`/_emulator/meetings/${meeting.id}/network`)
      .then((n) => live && setNet(n))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [meeting.id, told]);
  const fig = FIGURES[scenario];
  const apply = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { scenario };
    if (fig) {
      body[fig.field] = Number(figure || fig.value);
      body.direction = direction;
    }
    if (seconds && LASTING.includes(scenario)) body.seconds = Number(seconds);
    const path = target ? `/_emulator/meetings/${meeting.id}/participants/${target}/network` : `/_emulator/meetings/${meeting.id}/network`;
    void act(`Network: ${scenario}`, async () => setNet(await control.post<MeetingNetwork>(path, body))).then(() =>
      control.get<MeetingNetwork>(`/_emulator/meetings/${meeting.id}/network`).then(setNet),
    );
  };
  return html`
    <section aria-labelledby=${`network-${meeting.id}`}>
      <h3 id=${`network-${meeting.id}`}>Network</h3>
      <form class="inline" onSubmit=${apply} data-testid="network-form">
        <label
          >For
          <select aria-label="For" value=${target} onChange=${(e: Event) => setTarget((e.target as HTMLSelectElement).value)}>
            <option value="">the whole meeting</option>
            ${meeting.participants.map((p) => html`<option value=${p.id}>${p.name ?? p.custom_participant_id}</option>`)}
          </select></label
        >
        <label
          >Scenario
          <select aria-label="Scenario" value=${scenario} onChange=${(e: Event) => setScenario((e.target as HTMLSelectElement).value as ScenarioName)}>
            ${SCENARIOS.map((s) => html`<option value=${s}>${s}</option>`)}
          </select></label
        >
        ${
          fig &&
          html`<label
              >${fig.label}
              <input
                aria-label=${fig.label}
                type="number"
                min="0"
                value=${figure}
                placeholder=${fig.value}
                size="6"
                onInput=${(e: Event) => setFigure((e.target as HTMLInputElement).value)}
            /></label>
            <label
              >Direction
              <select aria-label="Direction" value=${direction} onChange=${(e: Event) => setDirection((e.target as HTMLSelectElement).value)}>
                ${['both', 'up', 'down'].map((d) => html`<option value=${d}>${d}</option>`)}
              </select></label
            >`
        }
        ${
          LASTING.includes(scenario) &&
          html`<label
            >Lasting (s)
            <input
              aria-label="Lasting (s)"
              type="number"
              min="0"
              value=${seconds}
              placeholder="until cleared"
              size="8"
              onInput=${(e: Event) => setSeconds((e.target as HTMLInputElement).value)}
          /></label>`
        }
        <button type="submit">Apply</button>
      </form>
      ${
        net &&
        html`<table class="list" data-testid="network">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Signalling</th>
              <th scope="col">In force</th>
              <th scope="col">Media up</th>
              <th scope="col">Media down</th>
            </tr>
          </thead>
          <tbody>
            ${
              net.scenarios.length > 0 &&
              html`<tr>
                <td>Everyone</td>
                <td>—</td>
                <td>${net.scenarios.map(scenarioText).join('; ')}</td>
                <td colspan="2"></td>
              </tr>`
            }
            ${net.participants.map(
              (p) =>
                html`<tr>
                  <td>${p.name ?? p.custom_participant_id}</td>
                  <td data-testid="connection">
                    ${
                      p.connection === 'reconnecting'
                        ? html`<span class="badge pending">reconnecting, present until ${p.leaves_at ? time(p.leaves_at) : '…'}</span>`
                        : p.connection === 'connected'
                          ? html`<span class="badge go">connected</span>`
                          : 'no page'
                    }
                  </td>
                  <td>${p.scenarios.map((s) => `${scenarioText(s)}${s.participant_id === null ? ' (meeting)' : ''}`).join('; ') || '—'}</td>
                  <td>${p.link.media === 'cut' ? html`<span class="badge bad">cut</span>` : pathText(p.link.up)}</td>
                  <td>${p.link.media === 'cut' ? html`<span class="badge bad">cut</span>` : pathText(p.link.down)}</td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
      ${
        net &&
        (net.scenarios.length > 0 || net.participants.some((p) => p.scenarios.length > 0)) &&
        html`<button
          type="button"
          onClick=${() =>
            act('Clearing the network', () => control.post<MeetingNetwork>(`/_emulator/meetings/${meeting.id}/network`, { scenario: 'clear' }).then(setNet))}
        >
          Clear every scenario
        </button>`
      }
    </section>
  `;
}
