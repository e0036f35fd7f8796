// In-memory state, scoped by organization from the start: every lookup goes through an org, so
// one organization's credentials can never reach another's data.
//
// Orders are kept as append-only id arrays next to the maps, so "newest first" pages cost
// O(page), not O(store).
import type {
  Category,
  Livestream,
  LivestreamSession,
  Meeting,
  Organization,
  OrgProfile,
  Participant,
  Preset,
  Product,
  Recording,
  Session,
  Webhook,
} from '../domain/models.js';

export class OrgData {
  readonly presets = new Map<string, Preset>();
  readonly presetsByName = new Map<string, Preset>();
  readonly meetings = new Map<string, Meeting>();
  readonly meetingOrder: string[] = [];
  readonly participants = new Map<string, Participant>();
  /** meeting id → participant ids in creation order. */
  readonly participantsByMeeting = new Map<string, string[]>();
  readonly recordings = new Map<string, Recording>();
  readonly recordingOrder: string[] = [];
  readonly recordingsByMeeting = new Map<string, string[]>();
  readonly livestreams = new Map<string, Livestream>();
  readonly livestreamOrder: string[] = [];
  readonly livestreamsByMeeting = new Map<string, string[]>();
  readonly livestreamSessions = new Map<string, LivestreamSession>();
  readonly livestreamSessionOrder: string[] = [];
  /** livestream id → its session ids in start order. */
  readonly livestreamSessionsByLivestream = new Map<string, string[]>();
  /** Keyed by the upper-cased short code `{category}-{PRODUCT_ID}`. */
  readonly products = new Map<string, Product>();
  /** Registered webhooks, in creation order (Map order). */
  readonly webhooks = new Map<string, Webhook>();
  /** Session history: every session of every meeting, in the order they started. */
  readonly sessions = new Map<string, Session>();
  readonly sessionOrder: string[] = [];
  /** meeting id → its session ids in start order. */
  readonly sessionsByMeeting = new Map<string, string[]>();

  /**
   * The organization's stored recording config (production's developer portal setting; the
   * control API sets it here): as given, without storage secrets; null when none is set.
   */
  recordingConfig: Record<string, unknown> | null = null;

  constructor(
    public org: Organization,
    public profile: OrgProfile,
  ) {}

  /** Adds or replaces a preset; the name index follows a rename. */
  putPreset(preset: Preset): void {
    const before = this.presets.get(preset.id);
    if (before && before.name !== preset.name) this.presetsByName.delete(before.name);
    this.presets.set(preset.id, preset);
    this.presetsByName.set(preset.name, preset);
  }

  deletePreset(preset: Preset): void {
    this.presets.delete(preset.id);
    if (this.presetsByName.get(preset.name)?.id === preset.id) this.presetsByName.delete(preset.name);
  }

  putMeeting(meeting: Meeting): void {
    if (!this.meetings.has(meeting.id)) this.meetingOrder.push(meeting.id);
    this.meetings.set(meeting.id, meeting);
  }

  putParticipant(p: Participant): void {
    if (!this.participants.has(p.id)) pushIndex(this.participantsByMeeting, p.meetingId, p.id);
    this.participants.set(p.id, p);
  }

  deleteParticipant(p: Participant): void {
    this.participants.delete(p.id);
    const ids = this.participantsByMeeting.get(p.meetingId);
    if (ids) {
      const i = ids.indexOf(p.id);
      if (i >= 0) ids.splice(i, 1);
    }
  }

  putRecording(r: Recording): void {
    if (!this.recordings.has(r.id)) {
      this.recordingOrder.push(r.id);
      pushIndex(this.recordingsByMeeting, r.meetingId, r.id);
    }
    this.recordings.set(r.id, r);
  }

  putSession(s: Session): void {
    if (!this.sessions.has(s.id)) {
      this.sessionOrder.push(s.id);
      pushIndex(this.sessionsByMeeting, s.meetingId, s.id);
    }
    this.sessions.set(s.id, s);
  }

  putLivestream(l: Livestream): void {
    if (!this.livestreams.has(l.id)) {
      this.livestreamOrder.push(l.id);
      if (l.meetingId !== null) pushIndex(this.livestreamsByMeeting, l.meetingId, l.id);
    }
    this.livestreams.set(l.id, l);
  }

  putLivestreamSession(s: LivestreamSession): void {
    if (!this.livestreamSessions.has(s.id)) {
      this.livestreamSessionOrder.push(s.id);
      pushIndex(this.livestreamSessionsByLivestream, s.livestreamId, s.id);
    }
    this.livestreamSessions.set(s.id, s);
  }
}

function pushIndex(index: Map<string, string[]>, key: string, id: string): void {
  const ids = index.get(key);
  if (ids) ids.push(id);
  else index.set(key, [id]);
}

export class Store {
  readonly orgs = new Map<string, OrgData>();
  readonly categories = new Map<string, Category>();

  clear(): void {
    this.orgs.clear();
    this.categories.clear();
  }

  org(id: string): OrgData | undefined {
    return this.orgs.get(id);
  }

  /**
   * A resource by id in whichever organization holds it: for the control API and the media
   * routes, which carry no credentials to scope by (ids are UUIDs, unique across organizations).
   */
  findInAnyOrg<T>(collection: (data: OrgData) => Map<string, T>, id: string): T | undefined {
    for (const data of this.orgs.values()) {
      const found = collection(data).get(id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Every resource of every organization that `keep` picks, in each organization's creation order. */
  allInAnyOrg<T>(collection: (data: OrgData) => { order: readonly string[]; items: Map<string, T> }, keep: (item: T) => boolean): T[] {
    const out: T[] = [];
    for (const data of this.orgs.values()) {
      const { order, items } = collection(data);
      for (const id of order) {
        const item = items.get(id);
        if (item !== undefined && keep(item)) out.push(item);
      }
    }
    return out;
  }

  addOrg(org: Organization, profile: OrgProfile): OrgData {
    const data = new OrgData(org, profile);
    this.orgs.set(org.id, data);
    return data;
  }
}
