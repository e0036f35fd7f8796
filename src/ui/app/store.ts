// The dashboard's state in one place: what it last read from the emulator, and the live events.
// Views read it through useStore(); every event of the stream schedules one refresh of what
// the event can have changed, so a burst of events costs one round of reads.
import { useEffect, useState } from 'preact/hooks';
import { control, forgetKeys, RequestFailed } from './api';
import type { ChatEntry, Clock, Delivery, FeedEvent, JournalEntry, Org, Overview, Poll, SessionActivity } from './types';

export type Tab = 'meetings' | 'deliveries' | 'journal' | 'controls' | 'events';

export interface State {
  orgs: Org[];
  orgId: string | null;
  overview: Overview | null;
  clock: Clock | null;
  deliveries: Delivery[];
  journal: JournalEntry[];
  /** The stream's history and live events (timelines are drawn from them). */
  events: FeedEvent[];
  live: boolean;
  tab: Tab;
  meetingId: string | null;
  /** The open meeting's session: its polls and chat; null before its first session. */
  activity: SessionActivity | null;
  deliveryId: string | null;
  /** Tokens the dashboard was given (participant id → token): the API shows a token once. */
  tokens: Record<string, string>;
  /** Scripted participants publishing the sample clip (participant id → camera and microphone), as the control API last answered. */
  clips: Record<string, { audio: boolean; video: boolean }>;
  error: string | null;
  notice: string | null;
}

const EVENTS_KEPT = 5_000;
/** The newest chat messages of the open meeting's session that the dashboard shows. */
const CHAT_SHOWN = 200;

let state: State = {
  orgs: [],
  orgId: null,
  overview: null,
  clock: null,
  deliveries: [],
  journal: [],
  events: [],
  live: false,
  tab: 'meetings',
  meetingId: null,
  activity: null,
  deliveryId: null,
  tokens: {},
  clips: {},
  error: null,
  notice: null,
};
const listeners = new Set<() => void>();

export function getState(): State {
  return state;
}

export function setState(patch: Partial<State>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function useStore(): State {
  const [, force] = useState(0);
  useEffect(() => {
    const l = () => force((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return state;
}

/** Runs an action; its failure is shown, not thrown. Refreshes afterwards. */
export async function act(what: string, run: () => Promise<unknown>, notice?: string): Promise<boolean> {
  try {
    await run();
    setState({ error: null, notice: notice ?? null });
    await refresh();
    return true;
  } catch (err) {
    setState({ error: `${what}: ${(err as Error).message}`, notice: null });
    return false;
  }
}

let refreshing: Promise<void> | undefined;
let again = false;

/** Reads what the views show. Calls during a refresh make one more refresh after it, not one each. */
export function refresh(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await readAll();
    } while (again);
  })().finally(() => (refreshing = undefined));
  return refreshing;
}

async function readAll(): Promise<void> {
  try {
    const [orgs, clock] = await Promise.all([control.get<Org[]>('/_emulator/orgs'), control.get<Clock>('/_emulator/clock')]);
    const orgId = orgs.some((o) => o.id === state.orgId) ? state.orgId : (orgs[0]?.id ?? null);
    const q = orgId ? `?org_id=${encodeURIComponent(orgId)}&limit=200` : '?limit=200';
    const [overview, deliveries, journal] = await Promise.all([
      orgId ? control.get<Overview>(`/_emulator/orgs/${orgId}/overview`) : Promise.resolve(null),
      control.get<{ deliveries: Delivery[] }>(`/_emulator/webhooks/deliveries${q}`),
      control.get<JournalEntry[]>('/_emulator/requests?limit=200'),
    ]);
    // The open meeting's session, once it has had one (before, there is nothing to read).
    const open = overview?.meetings.find((m) => m.id === state.meetingId);
    const activity = open?.session ? await readActivity(open.id) : null;
    setState({ orgs, orgId, clock, overview, deliveries: deliveries.deliveries, journal, activity });
  } catch (err) {
    setState({ error: `Reading the emulator: ${(err as Error).message}` });
  }
}

/** The polls and chat of a meeting's current or last session; null when it is gone meanwhile (a reset). */
async function readActivity(meetingId: string): Promise<SessionActivity | null> {
  try {
    const [polls, chat] = await Promise.all([
      control.get<{ session_id: string; polls: Poll[] }>(`/_emulator/meetings/${meetingId}/polls`),
      control.get<{ session_id: string; total: number; messages: ChatEntry[] }>(`/_emulator/meetings/${meetingId}/chat?limit=${CHAT_SHOWN}`),
    ]);
    return { meeting_id: meetingId, session_id: chat.session_id, polls: polls.polls, chat: chat.messages, chat_total: chat.total };
  } catch (err) {
    if (err instanceof RequestFailed && err.status === 404) return null;
    throw err;
  }
}

/** Opens a meeting's detail; its session's polls and chat are read with the rest. */
export function openMeeting(meetingId: string | null): void {
  setState({ meetingId, activity: null });
  void refresh();
}

/**
 * Shows a tab. The journal is read again as it opens: while it was hidden, reads by other clients
 * were not worth a refresh (see flush), so what it holds may be behind.
 */
export function openTab(tab: Tab): void {
  setState({ tab });
  if (tab === 'journal') void refresh();
}

export function selectOrg(orgId: string): void {
  setState({ orgId, meetingId: null, deliveryId: null });
  void refresh();
}

/** Events that arrived since the last render: a replay of thousands becomes one update, not thousands. */
let arrived: FeedEvent[] = [];
let flushing = false;
const FLUSH_MS = 50;
/** How often a real clock is read again: it moves by itself, and no event tells. */
const REAL_CLOCK_POLL_MS = 1_000;

function take(event: FeedEvent): void {
  arrived.push(event);
  if (flushing) return;
  flushing = true;
  setTimeout(flush, FLUSH_MS);
}

function flush(): void {
  flushing = false;
  const batch = arrived;
  arrived = [];
  let events = [...state.events];
  const patch: Partial<State> = {};
  let reread = false;
  for (const event of batch) {
    if (event.kind === 'reset') {
      events = [];
      patch.tokens = {};
      patch.clips = {};
      forgetKeys();
    } else events.push(event);
    if (event.kind === 'clock' || event.kind === 'reset') patch.clock = event.data as unknown as Clock;
    // A read by some client changes nothing the views show but the journal.
    if (event.kind !== 'request' || event.data.method !== 'GET' || state.tab === 'journal') reread = true;
  }
  setState({ ...patch, events: events.slice(-EVENTS_KEPT) });
  if (reread) void refresh();
}

/** Follows GET /_emulator/events; the browser reconnects by itself, resuming after the last id. */
export function connect(): EventSource {
  const source = new EventSource('/_emulator/events');
  source.addEventListener('open', () => setState({ live: true }));
  source.addEventListener('error', () => setState({ live: false }));
  source.addEventListener('hello', (e) => {
    const hello = JSON.parse((e as MessageEvent<string>).data) as Clock & { last_id: number };
    // Ids count up for the life of one emulator: a lower one is another run, whose history replaces ours.
    const restarted = hello.last_id < (state.events[state.events.length - 1]?.id ?? 0);
    setState({ clock: { now: hello.now, mode: hello.mode }, live: true, ...(restarted ? { events: [], tokens: {} } : {}) });
    if (restarted) forgetKeys();
    void refresh();
  });
  for (const kind of ['domain', 'delivery', 'upload', 'clock', 'request', 'reset'] as const) {
    source.addEventListener(kind, (e) => {
      const m = e as MessageEvent<string>;
      take({ id: Number(m.lastEventId), kind, data: JSON.parse(m.data) as FeedEvent['data'] });
    });
  }
  setInterval(() => {
    if (state.clock?.mode !== 'real') return;
    void control.get<Clock>('/_emulator/clock').then(
      (clock) => setState({ clock }),
      () => undefined,
    );
  }, REAL_CLOCK_POLL_MS);
  return source;
}
