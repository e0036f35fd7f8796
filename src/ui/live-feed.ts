// What the dashboard watches: one ordered stream of what happens inside the emulator — domain
// events, webhook deliveries and their attempts, recordings' uploads to their app's storage, clock
// moves, requests to the emulated APIs —
// served as server-sent events (GET /_emulator/events). Every event gets the next number of a
// counter, so a client that reconnects with Last-Event-ID misses nothing the ring still holds.
//
// The ring keeps the recent history (not requests: the request journal has those), so that a
// dashboard opened late can still draw a meeting's timeline. It is observability, like the
// journal: not part of a state export, emptied by a reset or an import (which it announces).
import { type Clock, clockView, toIso } from '../core/clock.js';
import type { EventBus } from '../core/events.js';
import type { Scheduler } from '../core/scheduler.js';
import type { DomainEvent } from '../domain/events.js';
import { attemptDto } from '../http/control/delivery-view.js';
import type { StorageUpload } from '../storage/storage-delivery.js';
import type { Delivery } from '../webhooks/outbox.js';

/** How many events the ring keeps for late or reconnecting clients. */
const FEED_HISTORY = 5_000;

export type FeedKind = 'domain' | 'delivery' | 'upload' | 'clock' | 'request' | 'reset';

export interface FeedMessage {
  /** Increasing, never reused (a reset does not start it over), the SSE `id`. */
  id: number;
  kind: FeedKind;
  data: Record<string, unknown>;
}

export interface FeedSubscriber {
  send(message: FeedMessage): void;
  /** The feed closed (server shutdown): the subscriber ends its stream. */
  end(): void;
}

/** A request as the feed tells it: never a body, a query or a header. */
export interface FeedRequest {
  id: string;
  api: string;
  method: string;
  path: string;
  status: number;
  org_id: string | null;
  deliveries: readonly string[];
}

/** What the dashboard needs of a domain event: ids and statuses, never a secret (no stream key, no API key). */
function domainData(e: DomainEvent): Record<string, unknown> {
  const meeting = 'meeting' in e ? e.meeting : null;
  const base = { type: e.type, at: toIso(e.at), org_id: e.org.id, meeting_id: meeting?.id ?? null };
  switch (e.type) {
    case 'recording.statusChanged':
      return { ...base, recording_id: e.recording.id, status: e.recording.status, previous: e.previous };
    case 'livestream.statusChanged':
      return { ...base, livestream_id: e.livestream.id, status: e.livestream.state, previous: e.previous };
    case 'meeting.started':
      return { ...base, session_id: e.meeting.session?.id ?? null };
    case 'meeting.ended':
      return { ...base, session_id: e.meeting.session?.id ?? null, reason: e.reason };
    case 'participant.joined':
      return { ...base, participant_id: e.participant.id, name: e.participant.name, custom_participant_id: e.participant.customParticipantId };
    case 'participant.left':
      return {
        ...base,
        participant_id: e.participant.id,
        name: e.participant.name,
        custom_participant_id: e.participant.customParticipantId,
        joined_at: toIso(e.joinedAt),
      };
    case 'livestream.enabled':
      return { ...base, livestream_id: e.livestream.id, disabled: e.livestream.disabled };
    case 'session.fileReady':
      return { ...base, session_id: e.session.id, file: e.file };
    case 'chat.sent':
      return { ...base, session_id: e.session.id, participant_id: e.message.participantId };
    case 'chat.updated':
      return { ...base, session_id: e.session.id, chat_id: e.message.id, change: e.change };
    case 'chat.channelChanged':
      return { ...base, session_id: e.session.id, channel_id: e.channel.id, change: e.change };
    case 'transcript.spoken':
      return { ...base, session_id: e.session.id, participant_id: e.line.participantId, live: e.live };
    case 'poll.created':
      return { ...base, session_id: e.session.id, poll_id: e.poll.id };
    case 'poll.voted':
      return { ...base, session_id: e.session.id, poll_id: e.poll.id, participant_id: e.participantId };
    case 'participants.muted':
      return { ...base, session_id: e.session.id, kind: e.kind, participant_ids: e.participantIds, allow_unmute: e.allowUnmute, by: e.by };
    case 'stage.changed':
      return { ...base, participant_id: e.participant.id, name: e.participant.name, status: e.status, previous: e.previous, action: e.action, by: e.by };
    case 'waitingRoom.changed':
      return { ...base, participant_id: e.participant.id, name: e.participant.name, change: e.change, by: e.by };
    case 'breakout.roomsChanged':
      return { ...base, change: e.change, room_ids: e.rooms.map((r) => r.id) };
    case 'network.changed':
      return {
        ...base,
        participant_id: e.participant?.id ?? null,
        name: e.participant?.name ?? null,
        change: e.change,
        scenario: e.scenario,
        detail: e.detail,
      };
    case 'breakout.moved':
      return { ...base, destination_id: e.destination.id, moves: e.transfers.map((t) => ({ from: t.from.id, to: t.to.id })) };
  }
}

/** Which meeting or livestream a delivery is about, read off its payload (a livestream's payload names only the stream). */
function subjectOf(body: string): { meeting_id: string | null; livestream_id: string | null } {
  try {
    const payload = JSON.parse(body) as { meeting?: { id?: unknown }; streamId?: unknown };
    return {
      meeting_id: typeof payload.meeting?.id === 'string' ? payload.meeting.id : null,
      livestream_id: typeof payload.streamId === 'string' ? payload.streamId : null,
    };
  } catch {
    return { meeting_id: null, livestream_id: null };
  }
}

/**
 * A delivery's body is fixed when it is made, so its subject is read once per delivery, not at
 * every attempt (a cache of a pure function, dropped with the delivery).
 */
const subjects = new WeakMap<Delivery, ReturnType<typeof subjectOf>>();
function subjectOfDelivery(d: Delivery): ReturnType<typeof subjectOf> {
  let subject = subjects.get(d);
  if (!subject) subjects.set(d, (subject = subjectOf(d.body)));
  return subject;
}

function deliveryData(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    org_id: d.orgId,
    webhook_id: d.webhookId,
    event: d.event,
    status: d.status,
    ...subjectOfDelivery(d),
    created_at: toIso(d.createdAt),
    attempts: d.attempts.map(attemptDto),
  };
}

export class LiveFeed {
  private ring: FeedMessage[] = [];
  private nextId = 1;
  private subscribers = new Set<FeedSubscriber>();
  private closed = false;
  private lastClock: number | undefined;
  private clockQueued = false;

  constructor(
    private readonly clock: Clock,
    private readonly capacity = FEED_HISTORY,
  ) {
    this.reset();
  }

  /** Subscribes once to the sources that are not told directly (construction: one feed per emulator, so no listener piles up). */
  watch(bus: EventBus<DomainEvent>, scheduler: Scheduler): void {
    bus.subscribe((e) => this.publish('domain', domainData(e)));
    // Every move of the clock goes through the scheduler (advance, set, jobs due in real time,
    // a load); several in one turn (an advance stops at every job) are told once, at the end.
    scheduler.onChange(() => {
      if (this.clockQueued) return;
      this.clockQueued = true;
      queueMicrotask(() => {
        this.clockQueued = false;
        const now = this.clock.now();
        if (now === this.lastClock) return;
        this.lastClock = now;
        this.publish('clock', this.clockData());
      });
    });
  }

  /** Forgets the history and tells every client to read the state again (reset, import). The counter goes on. */
  reset(): void {
    this.ring = [];
    if (this.nextId === 1) {
      this.lastClock = this.clock.now();
      return;
    }
    // Told once the load is over (the clock is among what it restores, after this reset).
    queueMicrotask(() => {
      this.lastClock = this.clock.now();
      this.publish('reset', this.clockData());
    });
  }

  clockData(): Record<string, unknown> {
    return clockView(this.clock);
  }

  /** A delivery was made, or one of its attempts ended. */
  delivery(d: Delivery): void {
    this.publish('delivery', deliveryData(d));
  }

  /**
   * A recording's upload to its app's storage began, ended, or was not sent. Its end is told even
   * when no status change follows (a recording forced to ERRORED while its upload ran). Ids, the
   * outcome and its reason only: never where the files went, nor a credential.
   */
  upload(u: StorageUpload): void {
    this.publish('upload', { org_id: u.orgId, recording_id: u.recordingId, storage_type: u.type, outcome: u.outcome, reason: u.reason });
  }

  /** A request ended. Told to those listening now only: the journal keeps requests, the ring does not. */
  request(r: FeedRequest): void {
    if (this.subscribers.size === 0) return;
    this.send({ id: this.nextId++, kind: 'request', data: { ...r, deliveries: [...r.deliveries] } });
  }

  /** The ring's events after `afterId`, oldest first. */
  since(afterId: number): FeedMessage[] {
    return this.ring.filter((m) => m.id > afterId);
  }

  /** The id of the newest event so far (0 before any). */
  get lastId(): number {
    return this.nextId - 1;
  }

  get listenerCount(): number {
    return this.subscribers.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Returns the unsubscribe function. After close() the subscriber is ended at once. */
  subscribe(subscriber: FeedSubscriber): () => void {
    if (this.closed) {
      subscriber.end();
      return () => {};
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Server shutdown: every stream ends now, so that none holds the shutdown open. */
  close(): void {
    this.closed = true;
    const ending = [...this.subscribers];
    this.subscribers.clear();
    for (const s of ending) s.end();
  }

  private publish(kind: FeedKind, data: Record<string, unknown>): void {
    const message: FeedMessage = { id: this.nextId++, kind, data };
    this.ring.push(message);
    if (this.ring.length > this.capacity) this.ring.shift();
    this.send(message);
  }

  private send(message: FeedMessage): void {
    for (const s of this.subscribers) s.send(message);
  }
}
