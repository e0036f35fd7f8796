// The official Cloudflare client (`cloudflare` on npm), which nobody here wrote, against a
// listening emulator: every method of its realtimeKit resources is either driven here (and its
// parsed result checked against what the emulator stored) or listed in PENDING_METHODS, the one
// table of methods whose operations the emulator does not serve yet. A network test: the
// emulator listens on a free port of the loopback interface and is closed at the end.
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { PRESET_BODY } from '../../helpers/builders.js';

const ACCOUNT = '00000000000000000000000000000001';
const TOKEN = 'emulator-api-key';
const APP = '00000000-0000-4000-8000-000000000001';
const MISSING = '9f1b7c1e-0000-4000-8000-00000000dead';
const SESSION = '9f1b7c1e-0000-4000-8000-00000000beef';

type Rtk = Cloudflare['realtimeKit'];
/** Params written loosely: the client's types mark fields required that the service defaults (a preset's permissions). */
const loose = <T>(params: Record<string, unknown>): T => params as T;
const inApp = { account_id: ACCOUNT, app_id: APP };

/**
 * The methods whose operations the emulator does not serve yet: each is called and must still
 * meet "no route serves this" (404, or 405 where another method serves the path). When one of
 * these operations is added, its check here fails: move the method to the driven tests below,
 * with assertions on what it answers, and remove it from this table.
 */
const PENDING_METHODS: Record<string, (rtk: Rtk, ids: { meeting: string }) => Promise<unknown>> = {
  'presets.replacePresetByID': (rtk) => rtk.presets.replacePresetByID(MISSING, loose({ ...inApp, name: 'p', config: {}, permissions: {}, ui: {} })),
  'sessions.getSessions': (rtk) => rtk.sessions.getSessions(APP, { account_id: ACCOUNT }),
  'sessions.getSessionDetails': (rtk) => rtk.sessions.getSessionDetails(SESSION, inApp),
  'sessions.getSessionParticipants': (rtk) => rtk.sessions.getSessionParticipants(SESSION, inApp),
  'sessions.getSessionParticipantDetails': (rtk) => rtk.sessions.getSessionParticipantDetails(MISSING, { ...inApp, session_id: SESSION }),
  'sessions.getParticipantDataFromPeerID': (rtk) => rtk.sessions.getParticipantDataFromPeerID('peer-1', inApp),
  'sessions.getSessionChat': (rtk) => rtk.sessions.getSessionChat(SESSION, inApp),
  'sessions.getSessionTranscripts': (rtk) => rtk.sessions.getSessionTranscripts(SESSION, inApp),
  'sessions.getSessionSummary': (rtk) => rtk.sessions.getSessionSummary(SESSION, inApp),
  'sessions.generateSummaryOfTranscripts': (rtk) => rtk.sessions.generateSummaryOfTranscripts(SESSION, inApp),
  'recordings.startTrackRecording': (rtk, { meeting }) => rtk.recordings.startTrackRecording(APP, loose({ account_id: ACCOUNT, meeting_id: meeting })),
  'activeSession.getActiveSession': (rtk, { meeting }) => rtk.activeSession.getActiveSession(meeting, inApp),
  'activeSession.kickParticipants': (rtk, { meeting }) => rtk.activeSession.kickParticipants(meeting, { ...inApp, custom_participant_ids: ['x'] }),
  'activeSession.kickAllParticipants': (rtk, { meeting }) => rtk.activeSession.kickAllParticipants(meeting, inApp),
  'activeSession.createPoll': (rtk, { meeting }) => rtk.activeSession.createPoll(meeting, loose({ ...inApp, question: 'q?', options: ['a', 'b'] })),
  'livestreams.getActiveLivestreamsForLivestreamID': (rtk) => rtk.livestreams.getActiveLivestreamsForLivestreamID(MISSING, inApp),
  'livestreams.getLivestreamSessionDetailsForSessionID': (rtk) => rtk.livestreams.getLivestreamSessionDetailsForSessionID(MISSING, inApp),
  'livestreams.getLivestreamAnalyticsComplete': (rtk) => rtk.livestreams.getLivestreamAnalyticsComplete(APP, { account_id: ACCOUNT }),
  'livestreams.getLivestreamAnalyticsDaywise': (rtk) => rtk.livestreams.getLivestreamAnalyticsDaywise(APP, { account_id: ACCOUNT }),
  'livestreams.getOrgAnalytics': (rtk) => rtk.livestreams.getOrgAnalytics(APP, { account_id: ACCOUNT }),
  'analytics.getOrgAnalytics': (rtk) => rtk.analytics.getOrgAnalytics(APP, { account_id: ACCOUNT }),
};

/** Every method of the client's realtimeKit resources, as `resource.method`. */
function clientMethods(rtk: Rtk): string[] {
  const out: string[] = [];
  for (const [name, resource] of Object.entries(rtk as unknown as Record<string, unknown>)) {
    if (!resource || typeof resource !== 'object' || name.startsWith('_')) continue;
    for (
      let proto = Object.getPrototypeOf(resource) as object | null;
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto) as object | null
    ) {
      if (proto.constructor.name === 'APIResource') break;
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key !== 'constructor' && typeof (proto as Record<string, unknown>)[key] === 'function') out.push(`${name}.${key}`);
      }
    }
  }
  return [...new Set(out)].sort();
}

let emu: RunningEmulator;
let client: Cloudflare;
let rtk: Rtk;
/** The methods the driven tests have called. */
const driven = new Set<string>();
function drive<T>(name: string, call: () => Promise<T>): Promise<T> {
  driven.add(name);
  return call();
}

beforeAll(async () => {
  emu = await startEmulator({ seed: 'cloudflare-client', startTime: '2026-01-01T00:00:00Z' });
  // No retries: a refused request is the answer under test, and a retry would wait on real time.
  client = new Cloudflare({ apiToken: TOKEN, baseURL: `${emu.url}/client/v4`, maxRetries: 0 });
  rtk = client.realtimeKit;
});

afterAll(async () => {
  await emu?.close();
});

describe('the official cloudflare client against the emulator', () => {
  let meetingId: string;
  let participantId: string;

  it('apps: lists the default app, creates one that the emulator then holds as an organization', async () => {
    const listed = await drive('apps.get', () => rtk.apps.get({ account_id: ACCOUNT }));
    expect(listed.success).toBe(true);
    expect(listed.data).toEqual([{ id: APP, name: 'Emulator Org', created_at: '2026-01-01T00:00:00.000Z' }]);
    expect(listed.paging).toEqual({ total_count: 1, start_offset: 1, end_offset: 1 });
    const made = await drive('apps.post', () => rtk.apps.post({ account_id: ACCOUNT, name: 'Made by the client' }));
    const id = made.data!.app!.id!;
    expect(made.data!.app).toEqual({ id, name: 'Made by the client', created_at: '2026-01-01T00:00:00.000Z' });
    expect(emu.deps.services.organizations.get(id)?.name).toBe('Made by the client');
    expect(emu.deps.services.accounts.accountOf(id)).toBe(ACCOUNT);
  });

  it('meetings: create, get, list, update, replace', async () => {
    const created = await drive('meetings.create', () => rtk.meetings.create(APP, { account_id: ACCOUNT, title: 'Client standup', record_on_start: false }));
    meetingId = created.data!.id;
    const stored = emu.deps.services.meetings.get(APP, meetingId);
    expect(stored.title).toBe('Client standup');
    expect(created.data).toEqual(expect.objectContaining({ id: meetingId, title: 'Client standup', status: 'ACTIVE', record_on_start: false }));

    const byId = await drive('meetings.getMeetingByID', () => rtk.meetings.getMeetingByID(meetingId, inApp));
    expect(byId.data).toEqual(created.data);
    const list = await drive('meetings.get', () => rtk.meetings.get(APP, { account_id: ACCOUNT }));
    expect(list.data.map((m) => m.id)).toEqual([meetingId]);
    expect(list.paging).toEqual(expect.objectContaining({ total_count: 1 }));

    const updated = await drive('meetings.updateMeetingByID', () => rtk.meetings.updateMeetingByID(meetingId, { ...inApp, title: 'Renamed by the client' }));
    expect(updated.data?.title).toBe('Renamed by the client');
    expect(emu.deps.services.meetings.get(APP, meetingId).title).toBe('Renamed by the client');
    const replaced = await drive('meetings.replaceMeetingByID', () => rtk.meetings.replaceMeetingByID(meetingId, { ...inApp, title: 'Replaced' }));
    expect(replaced.data?.title).toBe('Replaced');
    expect(emu.deps.services.meetings.get(APP, meetingId).title).toBe('Replaced');
  });

  it('participants: add, get, list, edit, refresh the token, delete', async () => {
    const added = await drive('meetings.addParticipant', () =>
      rtk.meetings.addParticipant(meetingId, { ...inApp, name: 'Ada', preset_name: 'group_call_host', custom_participant_id: 'ada-1' }),
    );
    participantId = added.data!.id;
    expect(added.data).toEqual(
      expect.objectContaining({ name: 'Ada', custom_participant_id: 'ada-1', preset_name: 'group_call_host', token: expect.any(String) }),
    );
    expect(emu.deps.services.participants.find(APP, participantId)?.name).toBe('Ada');

    const one = await drive('meetings.getMeetingParticipant', () => rtk.meetings.getMeetingParticipant(participantId, { ...inApp, meeting_id: meetingId }));
    expect(one.data).toEqual(expect.objectContaining({ id: participantId, name: 'Ada' }));
    const list = await drive('meetings.getMeetingParticipants', () => rtk.meetings.getMeetingParticipants(meetingId, inApp));
    expect(list.data.map((p) => p.id)).toEqual([participantId]);

    const edited = await drive('meetings.editParticipant', () =>
      rtk.meetings.editParticipant(participantId, { ...inApp, meeting_id: meetingId, name: 'Ada L.' }),
    );
    expect(edited.data).toEqual(expect.objectContaining({ id: participantId, name: 'Ada L.' }));
    expect(emu.deps.services.participants.find(APP, participantId)?.name).toBe('Ada L.');

    const refreshed = await drive('meetings.refreshParticipantToken', () =>
      rtk.meetings.refreshParticipantToken(participantId, { ...inApp, meeting_id: meetingId }),
    );
    const claims = await emu.deps.services.participants.tokens.verify(refreshed.data.token, emu.deps.clock.now());
    expect(claims).toEqual(expect.objectContaining({ participantId, meetingId }));

    const extra = await rtk.meetings.addParticipant(meetingId, { ...inApp, name: 'Temp', preset_name: 'group_call_participant', custom_participant_id: 'tmp' });
    const deleted = await drive('meetings.deleteMeetingParticipant', () =>
      rtk.meetings.deleteMeetingParticipant(extra.data!.id, { ...inApp, meeting_id: meetingId }),
    );
    // The removed participant as production answers it: no id, its custom id and preset.
    expect(deleted.data).toEqual(expect.objectContaining({ custom_participant_id: 'tmp', preset_id: '00000000-0000-4000-8000-0000000000a2' }));
    expect(emu.deps.services.participants.find(APP, extra.data!.id)).toBeUndefined();
  });

  it('recordings: start, list, get, active, pause, resume, stop', async () => {
    const started = await drive('recordings.startRecordings', () => rtk.recordings.startRecordings(APP, { account_id: ACCOUNT, meeting_id: meetingId }));
    const id = started.data!.id;
    expect(started.data).toEqual(expect.objectContaining({ id, meeting_id: meetingId, status: 'INVOKED' }));
    // The simulator starts it once its start delay has passed on the emulator's clock.
    await emu.advance(60_000);
    expect(emu.deps.services.recordings.get(APP, id).status).toBe('RECORDING');

    const list = await drive('recordings.getRecordings', () => rtk.recordings.getRecordings(APP, { account_id: ACCOUNT }));
    expect(list.data.map((r) => r.id)).toEqual([id]);
    const one = await drive('recordings.getOneRecording', () => rtk.recordings.getOneRecording(id, inApp));
    expect(one.data).toEqual(expect.objectContaining({ id, status: 'RECORDING' }));
    const active = await drive('recordings.getActiveRecordings', () => rtk.recordings.getActiveRecordings(meetingId, inApp));
    expect(active.data).toEqual(expect.objectContaining({ id, status: 'RECORDING' }));

    const act = (action: 'pause' | 'resume' | 'stop') =>
      drive('recordings.pauseResumeStopRecording', () => rtk.recordings.pauseResumeStopRecording(id, { ...inApp, action }));
    expect((await act('pause')).data).toEqual(expect.objectContaining({ id, status: 'PAUSED' }));
    expect((await act('resume')).data).toEqual(expect.objectContaining({ id, status: 'RECORDING' }));
    // A stopped recording goes on to upload at once (docs/time-and-lifecycles.md).
    expect((await act('stop')).data).toEqual(expect.objectContaining({ id, status: 'UPLOADING', stopped_time: '2026-01-01T00:01:00.000Z' }));
    expect(emu.deps.services.recordings.get(APP, id).status).toBe('UPLOADING');
  });

  it('livestreams: start, active, by id, list, stop', async () => {
    const started = await drive('livestreams.startLivestreamingAMeeting', () =>
      rtk.livestreams.startLivestreamingAMeeting(meetingId, { ...inApp, name: 'Client stream' }),
    );
    const id = started.data!.id!;
    expect(started.data).toEqual(expect.objectContaining({ id, name: 'Client stream', meeting_id: meetingId }));
    await emu.advance(60_000);
    expect(emu.deps.services.livestreams.get(APP, id).state).toBe('LIVE');

    const active = await drive('livestreams.getMeetingActiveLivestreams', () => rtk.livestreams.getMeetingActiveLivestreams(meetingId, inApp));
    expect(active.data).toEqual(expect.objectContaining({ id, status: 'LIVE' }));
    const one = await drive('livestreams.getLivestreamSessionForLivestreamID', () => rtk.livestreams.getLivestreamSessionForLivestreamID(id, inApp));
    expect(JSON.stringify(one)).toContain(id);
    const all = await drive('livestreams.getAllLivestreams', () => rtk.livestreams.getAllLivestreams(APP, { account_id: ACCOUNT }));
    expect(JSON.stringify(all.data)).toContain(id);
    const stopped = await drive('livestreams.stopLivestreamingAMeeting', () => rtk.livestreams.stopLivestreamingAMeeting(meetingId, inApp));
    expect(stopped.success).toBe(true);
    expect(emu.deps.services.livestreams.get(APP, id).state).toBe('STOPPED');
  });

  it('webhooks: create, list, get, edit, replace, delete; registered through RealtimeKit', async () => {
    // meeting.summary has no source in the emulator: nothing is delivered to the unreachable URL.
    const created = await drive('webhooks.createWebhook', () =>
      rtk.webhooks.createWebhook(APP, { account_id: ACCOUNT, name: 'Client hook', url: 'http://127.0.0.1:9/hook', events: ['meeting.summary'] }),
    );
    const id = created.data.id;
    expect(created.data).toEqual(
      expect.objectContaining({ id, name: 'Client hook', url: 'http://127.0.0.1:9/hook', events: ['meeting.summary'], enabled: true }),
    );
    expect(emu.deps.services.webhooks.get(APP, id).registeredThrough).toBe('realtimekit');

    const list = await drive('webhooks.getWebhooks', () => rtk.webhooks.getWebhooks(APP, { account_id: ACCOUNT }));
    expect(list.data.map((w) => w.id)).toEqual([id]);
    const one = await drive('webhooks.getWebhookByID', () => rtk.webhooks.getWebhookByID(id, inApp));
    expect(one.data).toEqual(created.data);
    const edited = await drive('webhooks.editWebhook', () => rtk.webhooks.editWebhook(id, { ...inApp, enabled: false }));
    expect(edited.data?.enabled).toBe(false);
    expect(emu.deps.services.webhooks.get(APP, id).enabled).toBe(false);
    const replaced = await drive('webhooks.replaceWebhook', () =>
      rtk.webhooks.replaceWebhook(id, { ...inApp, name: 'Replaced hook', url: 'http://127.0.0.1:9/other', events: ['meeting.summary'] }),
    );
    expect(replaced.data).toEqual(expect.objectContaining({ id, name: 'Replaced hook', url: 'http://127.0.0.1:9/other', enabled: true }));
    const deleted = await drive('webhooks.deleteWebhook', () => rtk.webhooks.deleteWebhook(id, inApp));
    expect(deleted.data).toEqual(expect.objectContaining({ id }));
    expect(emu.deps.services.webhooks.find(APP, id)).toBeUndefined();
  });

  it('presets: create, list, get, update, delete; a participant is added with the made preset', async () => {
    const created = await drive('presets.create', () => rtk.presets.create(APP, loose({ account_id: ACCOUNT, ...PRESET_BODY, name: 'client_preset' })));
    const id = created.data!.id!;
    expect(created.data).toEqual(expect.objectContaining({ id, name: 'client_preset' }));
    expect(emu.deps.services.presets.get(APP, id).name).toBe('client_preset');

    const list = await drive('presets.get', () => rtk.presets.get(APP, { account_id: ACCOUNT }));
    expect(list.data.map((p) => p.name)).toContain('client_preset');
    const byId = await drive('presets.getPresetByID', () => rtk.presets.getPresetByID(id, inApp));
    expect(byId.data).toEqual(created.data);

    const updated = await drive('presets.update', () =>
      rtk.presets.update(id, { ...inApp, name: 'client_preset_renamed', config: { max_screenshare_count: 3 } }),
    );
    expect(updated.data).toEqual(expect.objectContaining({ id, name: 'client_preset_renamed' }));
    expect(emu.deps.services.presets.get(APP, id).config.max_screenshare_count).toBe(3);
    const participant = await rtk.meetings.addParticipant(meetingId, { ...inApp, preset_name: 'client_preset_renamed', custom_participant_id: 'preset-user' });
    expect(participant.data?.preset_name).toBe('client_preset_renamed');

    const deleted = await drive('presets.delete', () => rtk.presets.delete(id, inApp));
    expect(deleted.data).toEqual(expect.objectContaining({ id }));
    await expect(rtk.presets.getPresetByID(id, inApp)).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('errors: a wrong token, a foreign account and an unknown app raise the client’s error classes', async () => {
    const wrong = new Cloudflare({ apiToken: 'not-a-token', baseURL: `${emu.url}/client/v4`, maxRetries: 0 });
    const refused = await wrong.realtimeKit.meetings.get(APP, { account_id: ACCOUNT }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Cloudflare.AuthenticationError);
    expect((refused as InstanceType<typeof Cloudflare.APIError>).errors).toEqual([{ code: 401, message: 'Invalid API token' }]);

    const foreign = await rtk.meetings.get(APP, { account_id: 'ffffffffffffffffffffffffffffffff' }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(Cloudflare.PermissionDeniedError);
    const unknownApp = await rtk.meetings.get(MISSING, { account_id: ACCOUNT }).catch((e: unknown) => e);
    expect(unknownApp).toBeInstanceOf(Cloudflare.NotFoundError);
    expect((unknownApp as InstanceType<typeof Cloudflare.APIError>).errors).toEqual([{ code: 404, message: `No app found with id ${MISSING}` }]);
    const unknownMeeting = await rtk.meetings.getMeetingByID(MISSING, inApp).catch((e: unknown) => e);
    expect(unknownMeeting).toBeInstanceOf(Cloudflare.NotFoundError);
    const invalid = await rtk.meetings.create(APP, loose({ account_id: ACCOUNT, title: 5 })).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(Cloudflare.BadRequestError);
  });

  it.each(Object.keys(PENDING_METHODS))('pending: %s is not served yet', async (name) => {
    const meeting = emu.deps.services.meetings.list(APP, { page: 1, perPage: 1 }).items[0]!.id;
    const err = await PENDING_METHODS[name]!(rtk, { meeting }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, `${name} now answers: drive it in a test above and remove it from PENDING_METHODS`).toBeInstanceOf(Cloudflare.APIError);
    const e = err as InstanceType<typeof Cloudflare.APIError>;
    expect([404, 405], name).toContain(e.status);
    expect(e.errors[0]?.message, name).toMatch(/^(Cannot [A-Z]+ |Method [A-Z]+ is not allowed on )/);
  });

  it('every method of the client’s realtimeKit resources is driven above or pending', () => {
    const all = clientMethods(rtk);
    // Version 7.3.0 of the client has 55 (apps 2, meetings 11, presets 6, sessions 9, recordings 6,
    // webhooks 6, active session 4, livestreams 10, analytics 1).
    expect(all.length).toBeGreaterThanOrEqual(55);
    const pending = Object.keys(PENDING_METHODS);
    expect(pending.filter((m) => driven.has(m))).toEqual([]);
    expect(all.filter((m) => !driven.has(m) && !pending.includes(m))).toEqual([]);
    expect([...driven, ...pending].filter((m) => !all.includes(m))).toEqual([]);
  });
});
