// The dashboard: one page, served by the emulator at /_emulator/ui, that reads the control API
// and follows the event stream. Preact with htm (templates without a JSX step).
import './app.css';
import { html } from 'htm/preact';
import { render } from 'preact';
import { connect, refresh, useStore, type State } from './store';
import { Controls } from './views/controls';
import { Deliveries } from './views/deliveries';
import { Events } from './views/events';
import { Header } from './views/header';
import { Journal } from './views/journal';
import { Meetings } from './views/meetings';

function View({ s }: { s: State }) {
  switch (s.tab) {
    case 'meetings':
      return html`<${Meetings} s=${s} />`;
    case 'deliveries':
      return html`<${Deliveries} s=${s} />`;
    case 'journal':
      return html`<${Journal} s=${s} />`;
    case 'controls':
      return html`<${Controls} s=${s} />`;
    case 'events':
      return html`<${Events} s=${s} />`;
  }
}

function App() {
  const s = useStore();
  return html`
    <${Header} s=${s} />
    <main id="main"><${View} s=${s} /></main>
  `;
}

const root = document.getElementById('app')!;
root.textContent = '';
render(html`<${App} />`, root);
connect();
void refresh();
