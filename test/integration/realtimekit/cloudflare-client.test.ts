// The official Cloudflare client (`cloudflare` on npm), which nobody here wrote, against a
// listening emulator: every method of its realtimeKit resources is driven here, and its parsed
// result checked against what the emulator stored. The state the reads need (who joined, what was
// said, a livestream going live) is built through the emulator itself: scripted participants over
// the control API and the manual clock. A network test: the emulator listens on a free port of the
// loopback interface and is closed at the end.
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { PRESET_BODY } from '../../helpers/builders.js';

const ACCOUNT = '00000000000000000000000000000001';
const TOKEN = 'emulator-api-key';
const APP = '00000000-0000-4000-8000-000000000001';
const MISSING = '9f1b7c1e-0000-4000-8000-00000000dead';

type Rtk = Cloudflare['realtimeKit'];
/** Params written loosely: the client's types mark fields required that the service defaults (a preset's permissions). */
const loose = <T>(params: Record<string, unknown>): T => params as T;
const inApp = { account_id: ACCOUNT, app_id: APP };

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
/**
 * A POST to the emulator's control API (no credentials): how a test scripts what people do in a
 * meeting and when a livestream's ingest begins.
 */
async function control(path: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${emu.url}/_emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
}
/** The text behind a signed download link the emulator answered with. */
async function download(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return res.text();
}
/** The methods the driven tests have called. */
const driven = new Set<string>();
function drive<T>(name: string, call: () => Promise<T>): Promise<T> {
  driven.add(name);
  return call();
}

beforeAll(async () => {
  // The client's calls are under test, not the media: livestreams go LIVE on the simulator's timer.
  emu = await startEmulator({ seed: 'cloudflare-client', startTime: '2026-01-01T00:00:00Z', livestreams: 'sample' });
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
      rtk.livestreams.startLivestreamingAMeeting(meetingId, { ...inApp, name: 'client-stream' }),
    );
    const id = started.data!.id!;
    expect(started.data).toEqual(expect.objectContaining({ id, name: 'client-stream', meeting_id: meetingId }));
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
    const id = created.data.id;
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

    // A replacement is the whole document again: the screenshare count the update set is the body's once more.
    const replaced = await drive('presets.replacePresetByID', () =>
      rtk.presets.replacePresetByID(id, loose({ ...inApp, ...PRESET_BODY, name: 'client_preset_replaced' })),
    );
    expect(replaced.data).toEqual(expect.objectContaining({ id, name: 'client_preset_replaced', created_at: created.data.created_at }));
    expect(replaced.data?.config.max_screenshare_count).toBe(1);
    expect(emu.deps.services.presets.get(APP, id)).toEqual(
      expect.objectContaining({ name: 'client_preset_replaced', config: expect.objectContaining({ max_screenshare_count: 1 }) }),
    );
    // The new name follows the preset to the participant added with it.
    expect(emu.deps.services.participants.find(APP, participant.data!.id)?.presetName).toBe('client_preset_replaced');

    const deleted = await drive('presets.delete', () => rtk.presets.delete(id, inApp));
    expect(deleted.data).toEqual(expect.objectContaining({ id }));
    await expect(rtk.presets.getPresetByID(id, inApp)).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('track recordings: started through the client, held by the emulator', async () => {
    const meeting = (await rtk.meetings.create(APP, { account_id: ACCOUNT, title: 'Client tracks' })).data!.id;
    const started = await drive('recordings.startTrackRecording', () =>
      rtk.recordings.startTrackRecording(APP, {
        account_id: ACCOUNT,
        meeting_id: meeting,
        layers: { default: { file_name_prefix: 'client-audio', media_kind: 'audio' } },
      }),
    );
    const stored = emu.deps.services.recordings.active(APP, meeting);
    expect(stored).toEqual(expect.objectContaining({ meetingId: meeting, status: 'INVOKED', outputFileName: expect.stringMatching(/^client-audio_/) }));
    expect(JSON.stringify(started)).toContain(stored.id);
    // The client makes `layers` optional; production's document requires them, as the emulator does.
    await expect(rtk.recordings.startTrackRecording(APP, { account_id: ACCOUNT, meeting_id: meeting })).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
  });

  // One scripted meeting for the active session and the session history: alice, bob and carol
  // join, alice chats, alice and bob speak; the host polls, kicks carol, then everyone.
  const room: { meeting: string; session: string; ids: Record<string, string> } = { meeting: '', session: '', ids: {} };

  it('active session: get, poll, kick, kick-all, acting on the scripted participants', async () => {
    room.meeting = (await rtk.meetings.create(APP, { account_id: ACCOUNT, title: 'Client session room' })).data!.id;
    const at = (pid: string, action: string) => `/meetings/${room.meeting}/participants/${pid}/${action}`;
    for (const name of ['alice', 'bob', 'carol']) {
      const added = await rtk.meetings.addParticipant(room.meeting, { ...inApp, name, preset_name: 'group_call_host', custom_participant_id: name });
      room.ids[name] = added.data!.id;
      await control(at(room.ids[name], 'join'));
    }
    await control(at(room.ids.alice!, 'chat'), { message: 'hello, all' });
    await control(at(room.ids.alice!, 'transcript'), { text: 'Good morning everyone' });
    await emu.advance(2_000);
    await control(at(room.ids.bob!, 'transcript'), { text: 'Morning, the build is green' });

    const active = await drive('activeSession.getActiveSession', () => rtk.activeSession.getActiveSession(room.meeting, inApp));
    room.session = active.data!.id;
    expect(active.data).toEqual(
      expect.objectContaining({ associated_id: room.meeting, meeting_display_name: 'Client session room', status: 'LIVE', live_participants: 3 }),
    );
    const stored = () => emu.deps.services.sessionHistory.get(APP, room.session);
    expect(stored().meetingId).toBe(room.meeting);

    const poll = await drive('activeSession.createPoll', () =>
      rtk.activeSession.createPoll(room.meeting, { ...inApp, question: 'Ship it?', options: ['yes', 'not yet'], anonymous: true }),
    );
    expect(poll.data?.action).toBe('create-poll');
    expect(poll.data?.poll).toEqual(
      expect.objectContaining({
        question: 'Ship it?',
        anonymous: true,
        hide_votes: false,
        options: [expect.objectContaining({ text: 'yes', count: 0 }), expect.objectContaining({ text: 'not yet', count: 0 })],
      }),
    );
    expect(stored().polls.map((p) => [p.id, p.question])).toEqual([[poll.data!.poll!.id, 'Ship it?']]);

    const kicked = await drive('activeSession.kickParticipants', () =>
      rtk.activeSession.kickParticipants(room.meeting, { ...inApp, custom_participant_ids: ['carol'] }),
    );
    expect(kicked.data).toEqual({ action: 'kick', participants: [expect.objectContaining({ id: room.ids.carol, name: 'carol' })] });
    expect(
      emu.deps.services.sessions
        .presence(room.meeting)
        .present.map((p) => p.id)
        .sort(),
    ).toEqual([room.ids.alice, room.ids.bob].sort());

    await emu.advance(58_000);
    const all = await drive('activeSession.kickAllParticipants', () => rtk.activeSession.kickAllParticipants(room.meeting, inApp));
    expect(all.data).toEqual({ action: 'kick-all', kicked_participants_count: 2 });
    expect(stored()).toEqual(expect.objectContaining({ endedAt: emu.deps.clock.now(), endReason: 'HOST_ENDED_MEETING' }));
  });

  it('sessions: the list, one session, its participants, a peer, chat, transcript and summary', async () => {
    const { meeting, session, ids } = room;
    const list = await drive('sessions.getSessions', () => rtk.sessions.getSessions(APP, { account_id: ACCOUNT, associated_id: meeting }));
    expect(list.data?.sessions?.map((s) => [s.id, s.status, s.max_concurrent_participants])).toEqual([[session, 'ENDED', 3]]);
    const one = await drive('sessions.getSessionDetails', () => rtk.sessions.getSessionDetails(session, inApp));
    // Production's document nests the session in `data.session`, which the emulator follows; the
    // client's type has the session as `data` itself.
    const details = one.data as unknown as { session: unknown };
    // Participant minutes: alice and bob were in for 60 s each, carol for 2 s until she was kicked.
    expect(details.session).toEqual(
      expect.objectContaining({ id: session, associated_id: meeting, status: 'ENDED', minutes_consumed: 2.0333, ended_at: '2026-01-01T00:03:00.000Z' }),
    );

    const participants = await drive('sessions.getSessionParticipants', () => rtk.sessions.getSessionParticipants(session, inApp));
    expect(participants.data?.participants?.map((p) => [p.id, p.custom_participant_id, p.display_name])).toEqual([
      [ids.alice, 'alice', 'alice'],
      [ids.bob, 'bob', 'bob'],
      [ids.carol, 'carol', 'carol'],
    ]);
    const alice = await drive('sessions.getSessionParticipantDetails', () =>
      rtk.sessions.getSessionParticipantDetails(ids.alice!, { ...inApp, session_id: session, include_peer_events: true }),
    );
    expect(alice.data?.participant).toEqual(expect.objectContaining({ id: ids.alice, custom_participant_id: 'alice', joined_at: '2026-01-01T00:02:00.000Z' }));
    const peer = await drive('sessions.getParticipantDataFromPeerID', () => rtk.sessions.getParticipantDataFromPeerID(ids.bob!, inApp));
    expect(JSON.stringify(peer.data)).toContain(ids.bob!);

    const chat = await drive('sessions.getSessionChat', () => rtk.sessions.getSessionChat(session, inApp));
    expect(await download(chat.data!.chat_download_url)).toContain(`${ids.alice},${session},${meeting},alice,false,false,TEXT_MESSAGE,"hello, all"`);
    const transcript = await drive('sessions.getSessionTranscripts', () => rtk.sessions.getSessionTranscripts(session, inApp));
    expect(transcript.data?.sessionId).toBe(session);
    const lines = await download(transcript.data!.transcript_download_url);
    expect(lines).toContain(',alice,alice,Good morning everyone');
    expect(lines).toContain(',bob,bob,"Morning, the build is green"');

    const generated = await drive('sessions.generateSummaryOfTranscripts', () => rtk.sessions.generateSummaryOfTranscripts(session, inApp));
    expect(generated).toEqual(expect.objectContaining({ success: true }));
    const summary = emu.deps.services.sessionHistory.get(APP, session).summary;
    expect(summary?.text).toContain('Good morning everyone');
    const link = await drive('sessions.getSessionSummary', () => rtk.sessions.getSessionSummary(session, inApp));
    expect(link.data?.sessionId).toBe(session);
    expect(await download(link.data!.summaryDownloadUrl)).toBe(summary!.text);
  });

  it('livestreams: a LIVE livestream with its session, the session, the livestream analytics', async () => {
    const meeting = (await rtk.meetings.create(APP, { account_id: ACCOUNT, title: 'Client broadcast' })).data!.id;
    const id = (await rtk.livestreams.startLivestreamingAMeeting(meeting, { ...inApp, name: 'broadcast' })).data!.id!;
    // Ingest begins when the control API says so, ahead of the simulator's delay.
    await control(`/livestreams/${id}/transition`, { to: 'LIVE' });
    await emu.advance(90_000);

    const active = await drive('livestreams.getActiveLivestreamsForLivestreamID', () => rtk.livestreams.getActiveLivestreamsForLivestreamID(id, inApp));
    expect(active.data?.livestream).toEqual(expect.objectContaining({ id, name: 'broadcast', meeting_id: meeting, status: 'LIVE' }));
    const sessionId = active.data!.session!.id!;
    expect(emu.deps.services.livestreams.getSession(APP, sessionId).livestreamId).toBe(id);
    expect(active.data?.session).toEqual(expect.objectContaining({ livestream_id: id, ingest_seconds: 90 }));

    await control(`/livestreams/${id}/transition`, { to: 'IDLE' });
    const details = await drive('livestreams.getLivestreamSessionDetailsForSessionID', () =>
      rtk.livestreams.getLivestreamSessionDetailsForSessionID(sessionId, inApp),
    );
    expect(details.data).toEqual(expect.objectContaining({ id: sessionId, livestream_id: id, ingest_seconds: 90, stopped_time: expect.any(String) }));

    // Every livestream session of the app: this one and the one the livestreams test ran.
    const sessions = emu.deps.services.livestreams.sessionsStartedBetween(APP, undefined, undefined);
    expect(sessions.map((s) => s.id)).toContain(sessionId);
    const overall = await drive('livestreams.getLivestreamAnalyticsComplete', () =>
      rtk.livestreams.getLivestreamAnalyticsComplete(APP, { account_id: ACCOUNT }),
    );
    expect(overall.data).toEqual(expect.objectContaining({ count: sessions.length }));
    // The client types the range as Unix seconds; production's document has ISO date-times, and the
    // emulator follows the document.
    const iso = await rtk.livestreams.getLivestreamAnalyticsComplete(APP, loose({ account_id: ACCOUNT, start_time: '2026-01-01T00:02:00Z' }));
    expect(iso.data?.count).toBe(1);
    await expect(rtk.livestreams.getLivestreamAnalyticsComplete(APP, { account_id: ACCOUNT, start_time: 1767225720 })).rejects.toBeInstanceOf(
      Cloudflare.BadRequestError,
    );
    const daywise = await drive('livestreams.getLivestreamAnalyticsDaywise', () => rtk.livestreams.getLivestreamAnalyticsDaywise(APP, { account_id: ACCOUNT }));
    expect(daywise.data).toEqual([expect.objectContaining({ date: '2026-01-01T00:00:00.000Z', count: sessions.length })]);
  });

  it('analytics: sessions and recordings per day, through both client methods', async () => {
    // Everything the app holds happened on the first day of the emulator's clock.
    const { sessions, recordings } = emu.deps.store.org(APP)!;
    for (const name of ['analytics.getOrgAnalytics', 'livestreams.getOrgAnalytics'] as const) {
      const [resource] = name.split('.') as ['analytics' | 'livestreams'];
      const res = await drive(name, () => rtk[resource].getOrgAnalytics(APP, { account_id: ACCOUNT, end_date: '2026-01-01' }));
      expect(res.data?.session_stats).toEqual(
        expect.objectContaining({
          sessions_count: sessions.size,
          day_stats: [expect.objectContaining({ day: '2026-01-01T00:00:00.000Z', total_sessions: sessions.size })],
        }),
      );
      expect(res.data?.recording_stats).toEqual(expect.objectContaining({ recording_count: recordings.size }));
    }
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

  it('every method of the client’s realtimeKit resources is driven above', () => {
    const all = clientMethods(rtk);
    // Version 7.3.0 of the client has 55 (apps 2, meetings 11, presets 6, sessions 9, recordings 6,
    // webhooks 6, active session 4, livestreams 10, analytics 1).
    expect(all.length).toBeGreaterThanOrEqual(55);
    expect(all.filter((m) => !driven.has(m))).toEqual([]);
    expect([...driven].filter((m) => !all.includes(m))).toEqual([]);
  });
});
