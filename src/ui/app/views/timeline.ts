// A meeting's timeline on the emulator clock, as an SVG: its sessions, each participant's
// presence, the statuses of its recordings and livestreams, and the attempts of the webhook
// deliveries about it, as lanes. Drawn from the event stream's history and the current state.
import { html } from 'htm/preact';
import { duration, seconds, shortId, time } from '../format';
import type { Delivery, FeedEvent, Meeting } from '../types';

interface Span {
  from: string;
  to: string | null;
  label: string;
  tone: string;
}

interface Lane {
  name: string;
  spans: Span[];
  marks?: Array<{ at: string; label: string; tone: string }>;
}

const TONES: Record<string, string> = {
  INVOKED: 'wait',
  RECORDING: 'go',
  PAUSED: 'wait',
  UPLOADING: 'busy',
  UPLOADED: 'done',
  ERRORED: 'bad',
  LIVE: 'go',
  OFFLINE: 'off',
  STOPPED: 'off',
};

/** Consecutive statuses of one resource as spans: each lasts until the next one began. */
function statusSpans(changes: Array<{ at: string; status: string }>, open: boolean): Span[] {
  return changes.map((c, i) => ({
    from: c.at,
    to: changes[i + 1]?.at ?? (open ? null : c.at),
    label: c.status,
    tone: TONES[c.status] ?? 'off',
  }));
}

export function lanesOf(meeting: Meeting, events: FeedEvent[], deliveries: Delivery[]): Lane[] {
  const mine = events.filter((e) => e.kind === 'domain' && e.data.meeting_id === meeting.id);
  const lanes: Lane[] = [];

  // The overview knows every session of the meeting (newest first): each is a band, oldest on the
  // left. A session the stream has told of but the overview has not caught up with yet is added
  // from the events, so that a join shows at once.
  const sessions: Span[] = [...meeting.sessions].reverse().map((x) => ({
    from: x.started_at,
    to: x.ended_at,
    label: `session ${shortId(x.id)}`,
    tone: x.ended_at === null ? 'go' : 'done',
  }));
  const known = new Set(sessions.map((x) => x.from));
  const told: Span[] = [];
  for (const e of mine) {
    if (e.data.type === 'meeting.started') told.push({ from: String(e.data.at), to: null, label: 'session', tone: 'go' });
    if (e.data.type === 'meeting.ended') {
      const last = told[told.length - 1];
      if (last && last.to === null) last.to = String(e.data.at);
    }
  }
  sessions.push(...told.filter((x) => !known.has(x.from)));
  if (meeting.session && !sessions.some((x) => x.from === meeting.session!.started_at))
    sessions.push({ from: meeting.session.started_at, to: meeting.session.ended_at, label: 'session', tone: 'go' });
  lanes.push({ name: 'Sessions', spans: sessions });

  // The network scenarios set on the whole meeting, as marks on a lane of their own.
  const networkMark = (e: FeedEvent) => ({
    at: String(e.data.at),
    label: `network ${String(e.data.change)}: ${String(e.data.detail ?? e.data.scenario ?? '')}`,
    tone: e.data.change === 'ended' || e.data.change === 'returned' ? 'done' : 'bad',
  });
  const meetingNetwork = mine.filter((e) => e.data.type === 'network.changed' && e.data.participant_id === null);
  if (meetingNetwork.length > 0) lanes.push({ name: 'Network', spans: [], marks: meetingNetwork.map(networkMark) });

  for (const p of meeting.participants) {
    const spans: Span[] = [];
    const marks: NonNullable<Lane['marks']> = [];
    for (const e of mine) {
      if (e.data.participant_id !== p.id) continue;
      if (e.data.type === 'participant.joined') spans.push({ from: String(e.data.at), to: null, label: 'present', tone: 'go' });
      if (e.data.type === 'participant.left') {
        const last = spans[spans.length - 1];
        if (last && last.to === null) last.to = String(e.data.at);
        else spans.push({ from: String(e.data.joined_at), to: String(e.data.at), label: 'present', tone: 'go' });
      }
      // A page whose socket was lost: present, reconnecting, until it is back or counts as left.
      if (e.data.type === 'network.changed') {
        if (e.data.change === 'lost') {
          const last = spans[spans.length - 1];
          if (last && last.to === null) last.to = String(e.data.at);
          spans.push({ from: String(e.data.at), to: null, label: 'reconnecting', tone: 'wait' });
        } else if (e.data.change === 'returned') {
          const last = spans[spans.length - 1];
          if (last && last.to === null) last.to = String(e.data.at);
          spans.push({ from: String(e.data.at), to: null, label: 'present', tone: 'go' });
        } else marks.push(networkMark(e));
      }
    }
    if (p.joined_at && !spans.some((s) => s.from === p.joined_at)) spans.push({ from: p.joined_at, to: null, label: 'present', tone: 'go' });
    lanes.push({ name: p.name ?? p.custom_participant_id, spans, marks });
  }

  for (const r of meeting.recordings) {
    const changes = mine.filter((e) => e.data.recording_id === r.id).map((e) => ({ at: String(e.data.at), status: String(e.data.status) }));
    if (changes.length === 0) changes.push({ at: r.invoked_time, status: r.status });
    const open = !['UPLOADED', 'ERRORED'].includes(r.status);
    lanes.push({ name: `Recording ${shortId(r.id)}`, spans: statusSpans(changes, open) });
  }
  for (const l of meeting.livestreams) {
    const changes = mine.filter((e) => e.data.livestream_id === l.id).map((e) => ({ at: String(e.data.at), status: String(e.data.status) }));
    if (changes.length === 0) changes.push({ at: l.created_at, status: l.status });
    lanes.push({ name: `Livestream ${shortId(l.id)}`, spans: statusSpans(changes, true) });
  }

  const streams = new Set(meeting.livestreams.map((l) => l.id));
  const about = deliveries.filter((d) => d.payload.meeting?.id === meeting.id || (d.payload.streamId !== undefined && streams.has(d.payload.streamId)));
  const marks = about.flatMap((d) =>
    d.attempts.map((a) => ({
      at: a.at,
      label: `${d.event}: ${a.status_code ?? a.error ?? 'no answer'} (${a.trigger})`,
      tone: a.status_code !== null && a.status_code < 300 ? 'done' : 'bad',
    })),
  );
  lanes.push({ name: 'Webhook attempts', spans: [], marks });
  return lanes;
}

const LANE_H = 26;
const LABEL_W = 150;
const WIDTH = 900;

export function Timeline({ meeting, events, deliveries, now }: { meeting: Meeting; events: FeedEvent[]; deliveries: Delivery[]; now: string }) {
  const lanes = lanesOf(meeting, events, deliveries);
  const start = meeting.created_at;
  const times = lanes.flatMap((l) => [...l.spans.flatMap((s) => [s.from, s.to ?? now]), ...(l.marks ?? []).map((m) => m.at)]);
  const end = [now, ...times].reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const total = Math.max(1, seconds(start, end));
  const x = (iso: string) => LABEL_W + (Math.max(0, seconds(start, iso)) / total) * (WIDTH - LABEL_W - 10);
  const height = lanes.length * LANE_H + 30;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => ({ x: LABEL_W + f * (WIDTH - LABEL_W - 10), label: `+${duration(f * total)}` }));
  const titleId = `timeline-title-${meeting.id}`;
  return html`
    <figure class="timeline">
      <svg viewBox=${`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby=${titleId} data-testid="timeline">
        <title id=${titleId}>Timeline of ${meeting.title ?? meeting.id} from ${time(start)} to ${time(end)} (emulator clock)</title>
        ${ticks.map((t) => html`<g class="tick"><line x1=${t.x} x2=${t.x} y1="0" y2=${height - 20} /><text x=${t.x} y=${height - 6}>${t.label}</text></g>`)}
        ${lanes.map(
          (lane, i) => html`
            <g class="lane" transform=${`translate(0 ${i * LANE_H + 4})`}>
              <text class="lane-name" x="4" y="16">${lane.name.length > 20 ? `${lane.name.slice(0, 19)}…` : lane.name}</text>
              ${lane.spans.map((s) => {
                const x1 = x(s.from);
                const w = Math.max(3, x(s.to ?? now) - x1);
                return html`<rect class=${`span ${s.tone}`} x=${x1} y="3" width=${w} height=${LANE_H - 8} rx="3">
                    <title>${s.label}: ${time(s.from)} → ${s.to ? time(s.to) : 'now'}</title>
                  </rect>
                  ${w > 60 && html`<text class="span-label" x=${x1 + 4} y="16">${s.label}</text>`}`;
              })}
              ${(lane.marks ?? []).map(
                (m) => html`<circle class=${`mark ${m.tone}`} cx=${x(m.at)} cy=${LANE_H / 2 - 1} r="5"><title>${m.label} at ${time(m.at)}</title></circle>`,
              )}
            </g>
          `,
        )}
      </svg>
      <figcaption>Lanes on the emulator clock, from the meeting's creation to now. Hover (or focus in a screen reader) a bar for its times.</figcaption>
    </figure>
  `;
}
