// Meetings of the organization, and one meeting in detail: its timeline, sessions (each with its
// counts), participants (presence, where they stand on the stage, scripted join and leave, tokens), its waiting room (admit,
// reject), its session's polls (votes) and chat (private messages, images, files), recordings (actions, forced transitions, the player once
// UPLOADED) and livestreams (the HLS player while LIVE).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { control, v2 } from '../api';
import { copy, shortId, time } from '../format';
import { act, getState, openMeeting, setState, type State } from '../store';
import type { ChatEntry, Livestream, Meeting, Participant, Poll, Recording, SessionActivity, StorageUpload, SessionSummary, Waiting } from '../types';
import { HlsPlayer, RecordingPlayer } from './players';
import { Network } from './network';
import { Timeline } from './timeline';

const PRESETS = ['group_call_host', 'group_call_participant', 'webinar_presenter', 'webinar_viewer', 'livestream_host', 'livestream_viewer'];
const RECORDING_STATUSES = ['INVOKED', 'RECORDING', 'PAUSED', 'UPLOADING', 'UPLOADED', 'ERRORED'];
const LIVESTREAM_STATUSES = ['OFFLINE', 'LIVE', 'ERRORED'];

const STAGE_LABELS: Record<NonNullable<Participant['stage']>, string> = {
  ON_STAGE: 'on stage',
  OFF_STAGE: 'off stage',
  REQUESTED_TO_JOIN_STAGE: 'asked to join',
  ACCEPTED_TO_JOIN_STAGE: 'let on, not yet joined',
};

function orgId(): string {
  return getState().orgId!;
}

function CreateMeeting() {
  const [title, setTitle] = useState('');
  return html`
    <form
      class="inline card"
      onSubmit=${async (e: Event) => {
        e.preventDefault();
        let id = '';
        const ok = await act('Creating a meeting', async () => {
          id = (await v2<{ id: string }>(orgId(), 'POST', '/v2/meetings', { title: title || null })).id;
        });
        if (ok) openMeeting(id);
        setTitle('');
      }}
    >
      <label>Title <input value=${title} onInput=${(e: Event) => setTitle((e.target as HTMLInputElement).value)} placeholder="Demo meeting" /></label>
      <button type="submit">Create meeting</button>
    </form>
  `;
}

function MeetingList({ s }: { s: State }) {
  const meetings = s.overview?.meetings ?? [];
  if (meetings.length === 0) return html`<p class="empty">No meeting in this organization yet.</p>`;
  return html`
    <table class="list" data-testid="meetings">
      <caption class="sr-only">
        Meetings, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Id</th>
          <th scope="col">Status</th>
          <th scope="col">Present</th>
          <th scope="col">Recordings</th>
          <th scope="col">Livestreams</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        ${meetings.map(
          (m) => html`
            <tr class=${m.id === s.meetingId ? 'selected' : ''} data-meeting-id=${m.id}>
              <td>
                <button type="button" class="link" onClick=${() => openMeeting(m.id)} aria-label=${`Open meeting ${m.title ?? m.id}`}>
                  ${m.title ?? '(untitled)'}
                </button>
              </td>
              <td><code>${shortId(m.id)}</code></td>
              <td>${m.status}${m.session && !m.session.ended_at ? html` <span class="badge go">in session</span>` : ''}</td>
              <td>${m.participants.filter((p) => p.joined_at).length} / ${m.participants.length}</td>
              <td>${m.recordings.map((r) => html`<span class=${`badge ${r.status}`}>${r.status}</span> `)}</td>
              <td>${m.livestreams.map((l) => html`<span class=${`badge ${l.status}`}>${l.status}</span> `)}</td>
              <td>${time(m.created_at)}</td>
            </tr>
          `,
        )}
      </tbody>
    </table>
    ${s.overview && s.overview.meetings_total > meetings.length && html`<p class="empty">Showing the newest ${meetings.length} of ${s.overview.meetings_total}.</p>`}
  `;
}

function Token({ participant, token }: { participant: Participant; token: string | undefined }) {
  const [copied, setCopied] = useState(false);
  if (!token) return null;
  return html`
    <div class="token">
      <label
        >Token of ${participant.name ?? participant.custom_participant_id}
        <input readonly value=${token} size="24" onFocus=${(e: Event) => (e.target as HTMLInputElement).select()}
      /></label>
      <button
        type="button"
        onClick=${async () => {
          await copy(token).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        ${copied ? 'Copied' : 'Copy token'}
      </button>
    </div>
  `;
}

/** A present participant says a line: kept in the session's transcript, and heard live by the pages when their preset transcribes them. */
function Speak({ meeting, participant }: { meeting: Meeting; participant: Participant }) {
  const [text, setText] = useState('');
  const who = participant.name ?? participant.custom_participant_id;
  const say = async (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    await act('Saying a line', () => control.post(`/_emulator/meetings/${meeting.id}/participants/${participant.id}/transcript`, { text }));
    setText('');
  };
  return html`<form class="inline speak" onSubmit=${say}>
    <input
      value=${text}
      onInput=${(e: Event) => setText((e.target as HTMLInputElement).value)}
      placeholder="Hello, everyone"
      aria-label=${`A line for ${who} to say`}
      maxlength="4000"
    />
    <button
      type="submit"
      aria-label=${`Say it as ${who}`}
      title="Kept in the transcript; the pages show it live when the participant's preset has transcription_enabled"
    >
      Say
    </button>
  </form>`;
}

function Participants({ meeting, tokens }: { meeting: Meeting; tokens: Record<string, string> }) {
  const [name, setName] = useState('');
  const [preset, setPreset] = useState(PRESETS[0]!);
  const addParticipant = async (e: Event) => {
    e.preventDefault();
    const n = meeting.participants.length + 1;
    await act('Adding a participant', async () => {
      const p = await v2<{ id: string; token: string }>(orgId(), 'POST', `/v2/meetings/${meeting.id}/participants`, {
        name: name || `Participant ${n}`,
        preset_name: preset,
        custom_participant_id: `dashboard-${n}-${meeting.participants.length}`,
      });
      setState({ tokens: { ...getState().tokens, [p.id]: p.token } });
    });
    setName('');
  };
  return html`
    <section aria-labelledby=${`participants-${meeting.id}`}>
      <h3 id=${`participants-${meeting.id}`}>Participants</h3>
      <form class="inline" onSubmit=${addParticipant}>
        <label>Name <input value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} placeholder="Ada" /></label>
        <label
          >Preset
          <select value=${preset} onChange=${(e: Event) => setPreset((e.target as HTMLSelectElement).value)}>
            ${PRESETS.map((p) => html`<option value=${p}>${p}</option>`)}
          </select></label
        >
        <button type="submit">Add participant</button>
      </form>
      ${
        meeting.participants.length > 0 &&
        html`<table class="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Custom id</th>
              <th scope="col">Preset</th>
              <th scope="col">Present</th>
              <th scope="col">Stage</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            ${meeting.participants.map(
              (p) => html`
                <tr>
                  <td>${p.name ?? '—'}</td>
                  <td><code>${p.custom_participant_id}</code></td>
                  <td>${p.preset_name}</td>
                  <td>${p.joined_at ? html`<span class="badge go">since ${time(p.joined_at)}</span>` : 'absent'}</td>
                  <td data-testid="stage">
                    ${p.stage ? html`<span class=${`badge ${p.stage === 'ON_STAGE' ? 'go' : ''}`}>${STAGE_LABELS[p.stage]}</span>` : '—'}
                  </td>
                  <td class="actions">
                    ${
                      p.joined_at
                        ? html`<button
                              type="button"
                              onClick=${() =>
                                act('Leaving', async () => {
                                  await control.post(`/_emulator/meetings/${meeting.id}/participants/${p.id}/leave`);
                                  // A leave stops the clip.
                                  const { [p.id]: _stopped, ...clips } = getState().clips;
                                  setState({ clips });
                                })}
                              aria-label=${`Leave the meeting: ${p.name ?? p.custom_participant_id}`}
                            >
                              Leave
                            </button>
                            <button
                              type="button"
                              onClick=${() =>
                                act('Switching the clip', async () => {
                                  const on = !(getState().clips[p.id]?.video ?? false);
                                  const media = await control.post<{ audio: boolean; video: boolean }>(
                                    `/_emulator/meetings/${meeting.id}/participants/${p.id}/media`,
                                    { audio: on, video: on },
                                  );
                                  setState({ clips: { ...getState().clips, [p.id]: media } });
                                })}
                              aria-label=${`${getState().clips[p.id]?.video ? 'Stop the sample clip of' : 'Publish the sample clip as'} ${p.name ?? p.custom_participant_id}`}
                              title="Camera and microphone: a test pattern and a tone, seen and heard in every page of the meeting"
                            >
                              ${getState().clips[p.id]?.video ? 'Stop clip' : 'Publish clip'}
                            </button>
                            <${Speak} meeting=${meeting} participant=${p} />`
                        : html`<button
                            type="button"
                            onClick=${() => act('Joining', () => control.post(`/_emulator/meetings/${meeting.id}/participants/${p.id}/join`))}
                            aria-label=${`Join the meeting: ${p.name ?? p.custom_participant_id}`}
                          >
                            Join
                          </button>`
                    }
                    <button
                      type="button"
                      onClick=${() =>
                        act('Issuing a token', async () => {
                          const t = await v2<{ token: string }>(orgId(), 'POST', `/v2/meetings/${meeting.id}/participants/${p.id}/token`);
                          setState({ tokens: { ...getState().tokens, [p.id]: t.token } });
                        })}
                      aria-label=${`${tokens[p.id] ? 'New token' : 'Get token'} for ${p.name ?? p.custom_participant_id}`}
                    >
                      ${tokens[p.id] ? 'New token' : 'Get token'}
                    </button>
                    <${Token} participant=${p} token=${tokens[p.id]} />
                  </td>
                </tr>
              `,
            )}
          </tbody>
        </table>`
      }
    </section>
  `;
}

function WaitingRoom({ meeting }: { meeting: Meeting }) {
  if (!meeting.waiting_room && meeting.waiting.length === 0) return null;
  const decide = (w: Waiting, verb: 'admit' | 'reject') =>
    act(verb === 'admit' ? 'Admitting' : 'Rejecting', () =>
      control.post(`/_emulator/meetings/${meeting.id}/waiting-room/${verb}`, { participant_ids: [w.participant_id] }),
    );
  return html`
    <section aria-labelledby=${`waiting-${meeting.id}`}>
      <h3 id=${`waiting-${meeting.id}`}>Waiting room</h3>
      ${
        meeting.waiting.length === 0
          ? html`<p class="empty">Nobody waits. Participants whose preset waits (permissions.waiting_room_type) wait here until admitted.</p>`
          : html`<table class="list" data-testid="waiting-room">
              <caption class="sr-only">
                Who waits, in the order they arrived
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Preset</th>
                  <th scope="col">Waiting since</th>
                  <th scope="col">From</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${meeting.waiting.map(
                  (w) => html`
                    <tr data-participant-id=${w.participant_id}>
                      <td>${w.name ?? w.custom_participant_id}</td>
                      <td>${w.preset_name}</td>
                      <td>${time(w.since)}</td>
                      <td>${w.via === 'page' ? 'a page' : 'scripted'}</td>
                      <td class="actions">
                        <button type="button" onClick=${() => decide(w, 'admit')} aria-label=${`Admit ${w.name ?? w.custom_participant_id}`}>Admit</button>
                        <button type="button" onClick=${() => decide(w, 'reject')} aria-label=${`Reject ${w.name ?? w.custom_participant_id}`}>Reject</button>
                      </td>
                    </tr>
                  `,
                )}
              </tbody>
            </table>`
      }
    </section>
  `;
}

const END_REASONS: Record<NonNullable<SessionSummary['end_reason']>, string> = {
  ALL_PARTICIPANTS_LEFT: 'everyone left',
  HOST_ENDED_MEETING: 'the host ended it',
};

function Sessions({ meeting }: { meeting: Meeting }) {
  return html`
    <section aria-labelledby=${`sessions-${meeting.id}`}>
      <h3 id=${`sessions-${meeting.id}`}>Sessions</h3>
      ${
        meeting.sessions.length === 0
          ? html`<p class="empty">No session yet: one starts when the first participant joins.</p>`
          : html`<table class="list" data-testid="sessions">
              <caption class="sr-only">
                Sessions of this meeting, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Started</th>
                  <th scope="col">Ended</th>
                  <th scope="col">End reason</th>
                  <th scope="col">Participants</th>
                  <th scope="col">Chat messages</th>
                  <th scope="col">Transcript lines</th>
                </tr>
              </thead>
              <tbody>
                ${meeting.sessions.map(
                  (x) => html`
                    <tr data-session-id=${x.id}>
                      <td><code title=${x.id}>${shortId(x.id)}</code></td>
                      <td>${time(x.started_at)}</td>
                      <td>${x.ended_at ? time(x.ended_at) : html`<span class="badge go">running</span>`}</td>
                      <td>${x.end_reason ? END_REASONS[x.end_reason] : '—'}</td>
                      <td>${x.participant_count}</td>
                      <td>${x.chat_message_count}</td>
                      <td>${x.transcript_line_count}</td>
                    </tr>
                  `,
                )}
              </tbody>
            </table>`
      }
    </section>
  `;
}

function ForceForm({ label, what, statuses, onForce }: { label: string; what: string; statuses: string[]; onForce: (to: string) => void }) {
  const [to, setTo] = useState(statuses[0]!);
  return html`
    <form class="inline" onSubmit=${(e: Event) => (e.preventDefault(), onForce(to))}>
      <label
        >${label}
        <select value=${to} onChange=${(e: Event) => setTo((e.target as HTMLSelectElement).value)}>
          ${statuses.map((st) => html`<option value=${st}>${st}</option>`)}
        </select></label
      >
      <button type="submit" aria-label=${`Force ${what}`}>Force</button>
    </form>
  `;
}

function history(s: State, key: 'recording_id' | 'livestream_id', id: string): string {
  const changes = s.events.filter((e) => e.kind === 'domain' && e.data[key] === id);
  return changes.map((e) => `${String(e.data.status)} at ${time(String(e.data.at))}`).join(' → ');
}

function RecordingCard({ r, s }: { r: Recording; s: State }) {
  const action = (a: 'pause' | 'resume' | 'stop') => act(`Recording ${a}`, () => v2(orgId(), 'PUT', `/v2/recordings/${r.id}`, { action: a }));
  return html`
    <article class="card" data-recording-id=${r.id} aria-label=${`Recording ${shortId(r.id)}`}>
      <h4>Recording <code>${shortId(r.id)}</code> <span class=${`badge ${r.status}`} data-testid="recording-status">${r.status}</span></h4>
      <p class="muted">Status history: ${history(s, 'recording_id', r.id) || `${r.status} since ${time(r.invoked_time)}`}</p>
      <div class="row">
        ${r.status === 'RECORDING' && html`<button type="button" onClick=${() => action('pause')} aria-label=${`Pause recording ${shortId(r.id)}`}>Pause</button>`}
        ${r.status === 'PAUSED' && html`<button type="button" onClick=${() => action('resume')} aria-label=${`Resume recording ${shortId(r.id)}`}>Resume</button>`}
        ${['INVOKED', 'RECORDING', 'PAUSED'].includes(r.status) && html`<button type="button" onClick=${() => action('stop')} aria-label=${`Stop recording ${shortId(r.id)}`}>Stop recording</button>`}
        <${ForceForm}
          label="Force to"
          what=${`recording ${shortId(r.id)}`}
          statuses=${RECORDING_STATUSES}
          onForce=${(to: string) => act('Forcing a recording transition', () => control.post(`/_emulator/recordings/${r.id}/transition`, { to }))}
        />
      </div>
      ${
        r.status === 'UPLOADED' &&
        r.download_url &&
        html`<${RecordingPlayer} src=${r.download_url} label=${`Recording ${shortId(r.id)}`} />
          <p>
            <a href=${r.download_url}>Download ${r.output_file_name}</a
            >${r.recording_duration !== null ? ` · ${r.recording_duration} s` : ''}${r.file_size !== null ? ` · ${r.file_size} bytes` : ''}
          </p>`
      }
      ${r.status === 'ERRORED' && r.error_reason && html`<p class="error" data-testid="recording-error">${r.error_reason}</p>`}
      ${r.storage_upload && html`<${StorageUploadView} u=${r.storage_upload} />`}
    </article>
  `;
}

const UPLOAD_OUTCOMES: Record<StorageUpload['outcome'], string> = {
  uploading: 'uploading',
  uploaded: 'uploaded',
  failed: 'failed',
  not_sent: 'not sent',
};

/** Where a recording's files went for its storage_config, and how that ended. */
function StorageUploadView({ u }: { u: StorageUpload }) {
  return html`
    <div class="storage-upload" data-testid="storage-upload">
      <p>
        Storage (${u.type}):
        <span class=${`badge ${u.outcome === 'uploaded' ? 'UPLOADED' : u.outcome === 'failed' ? 'ERRORED' : 'INVOKED'}`}>${UPLOAD_OUTCOMES[u.outcome]}</span>
        ${u.outcome === 'not_sent' && u.reason ? html` <span class="muted">${u.reason}</span>` : ''}
      </p>
      ${
        u.files.length > 0 &&
        html`<ul>
          ${u.files.map((f) => html`<li><code>${f.location}</code> · ${f.bytes} bytes · ${UPLOAD_OUTCOMES[f.outcome as StorageUpload['outcome']] ?? f.outcome}</li>`)}
        </ul>`
      }
    </div>
  `;
}

/**
 * A livestream: its status and history, Stop and the forced transitions, and its HLS player while LIVE.
 * The player goes as soon as the user asks for the livestream to stop (or to be forced out of LIVE):
 * its playlist exists only while the livestream is LIVE, and a player still asking for it until the
 * view hears of the new status would fill the console with failed loads. It comes back if the request
 * fails.
 */
function LivestreamCard({ l, s, meeting }: { l: Livestream; s: State; meeting: Meeting }) {
  const [leaving, setLeaving] = useState(false);
  useEffect(() => setLeaving(false), [l.status]);
  const leave = (what: string, run: () => Promise<unknown>) => {
    setLeaving(true);
    void act(what, run).then((done) => done || setLeaving(false));
  };
  return html`
    <article class="card" data-livestream-id=${l.id} aria-label=${`Livestream ${shortId(l.id)}`}>
      <h4>Livestream ${l.name ?? ''} <code>${shortId(l.id)}</code> <span class=${`badge ${l.status}`} data-testid="livestream-status">${l.status}</span></h4>
      <p class="muted">Status history: ${history(s, 'livestream_id', l.id) || `${l.status} since ${time(l.created_at)}`}</p>
      <div class="row">
        ${
          l.status === 'LIVE' &&
          html`<button
            type="button"
            onClick=${() => leave('Stopping the livestream', () => v2(orgId(), 'POST', `/v2/meetings/${meeting.id}/active-livestream/stop`))}
          >
            Stop livestream
          </button>`
        }
        <${ForceForm}
          label="Force to"
          what=${`livestream ${shortId(l.id)}`}
          statuses=${LIVESTREAM_STATUSES}
          onForce=${(to: string) => {
            const run = () => control.post(`/_emulator/livestreams/${l.id}/transition`, { to });
            if (to === 'LIVE') void act('Forcing a livestream transition', run);
            else leave('Forcing a livestream transition', run);
          }}
        />
      </div>
      ${l.status === 'LIVE' && !leaving && html`<${HlsPlayer} src=${l.playback_url} label=${`Livestream ${l.name ?? shortId(l.id)}`} />`}
    </article>
  `;
}

/** A meeting's breakout rooms (meetings opened from it), with who is in each now; a room names its parent. */
function BreakoutRooms({ meeting, s }: { meeting: Meeting; s: State }) {
  const all = s.overview?.meetings ?? [];
  const parent = meeting.parent_meeting_id ? all.find((m) => m.id === meeting.parent_meeting_id) : undefined;
  const rooms = all.filter((m) => m.parent_meeting_id === meeting.id).reverse();
  if (!meeting.parent_meeting_id && rooms.length === 0) return null;
  const members = (m: Meeting) =>
    m.participants
      .filter((p) => p.joined_at)
      .map((p) => p.name ?? p.custom_participant_id)
      .join(', ') || '—';
  return html`
    <section aria-labelledby=${`breakout-${meeting.id}`}>
      <h3 id=${`breakout-${meeting.id}`}>Breakout rooms</h3>
      ${
        meeting.parent_meeting_id
          ? html`<p>
              A breakout room of
              <button type="button" class="link" onClick=${() => openMeeting(meeting.parent_meeting_id)}>${parent?.title ?? meeting.parent_meeting_id}</button>
            </p>`
          : html`<table class="list" data-testid="breakout-rooms">
              <caption class="sr-only">
                Breakout rooms of this meeting, in the order they were opened
              </caption>
              <thead>
                <tr>
                  <th scope="col">Room</th>
                  <th scope="col">Status</th>
                  <th scope="col">In the room now</th>
                </tr>
              </thead>
              <tbody>
                <tr data-room-id=${meeting.id}>
                  <td>${meeting.title ?? '(untitled)'} (main)</td>
                  <td>${meeting.status}</td>
                  <td>${members(meeting)}</td>
                </tr>
                ${rooms.map(
                  (r) => html`
                    <tr data-room-id=${r.id}>
                      <td><button type="button" class="link" onClick=${() => openMeeting(r.id)}>${r.title ?? '(untitled)'}</button></td>
                      <td>${r.status === 'ACTIVE' ? 'open' : 'closed'}</td>
                      <td>${members(r)}</td>
                    </tr>
                  `,
                )}
              </tbody>
            </table>`
      }
    </section>
  `;
}

/** Who a participant id is: their name (or custom id), the organization for what it did over the API, or a short id. */
function nameOf(id: string, meeting: Meeting, s: State): string {
  const p = meeting.participants.find((x) => x.id === id);
  if (p) return p.name ?? p.custom_participant_id;
  if (id === s.overview?.organization.id) return `${s.overview.organization.name} (the API)`;
  return shortId(id);
}

function PollCard({ poll, by }: { poll: Poll; by: string }) {
  const total = poll.options.reduce((n, o) => n + o.count, 0);
  // One string: markup split over lines loses the spaces between its parts.
  const summary = [
    `By ${by}`,
    `${total} ${total === 1 ? 'vote' : 'votes'}`,
    poll.anonymous && 'anonymous',
    poll.hide_votes && 'votes hidden from the pages until they vote',
  ]
    .filter(Boolean)
    .join(' · ');
  return html`
    <article class="card" data-poll-id=${poll.id} aria-label=${`Poll: ${poll.question}`}>
      <h4>${poll.question}</h4>
      <p class="muted">${summary}</p>
      <ul class="poll-options">
        ${poll.options.map(
          (o) => html`
            <li data-testid="poll-option">
              <span class="poll-text">${o.text}</span>
              <meter min="0" max=${Math.max(total, 1)} value=${o.count} aria-label=${`${o.text}: ${o.count} of ${total}`}></meter>
              <span data-testid="poll-count">${o.count}</span>
              ${!poll.anonymous && o.votes.length > 0 && html`<span class="muted">${o.votes.map((v) => v.name).join(', ')}</span>`}
            </li>
          `,
        )}
      </ul>
    </article>
  `;
}

function Polls({ activity, meeting, s }: { activity: SessionActivity | null; meeting: Meeting; s: State }) {
  if (!activity || activity.polls.length === 0) return null;
  return html`
    <section aria-labelledby="polls-title">
      <h3 id="polls-title">Polls</h3>
      ${activity.polls.map((p) => html`<${PollCard} key=${p.id} poll=${p} by=${nameOf(p.created_by, meeting, s)} />`)}
    </section>
  `;
}

function sizeOf(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return ` · ${bytes} bytes`;
  if (bytes < 1024 * 1024) return ` · ${Math.round(bytes / 102.4) / 10} KiB`;
  return ` · ${Math.round(bytes / 104857.6) / 10} MiB`;
}

function ChatContent({ m }: { m: ChatEntry }) {
  const f = m.file;
  if (m.payload_type === 'IMAGE_MESSAGE' && f?.path)
    return html`<a href=${f.path} target="_blank" rel="noopener"><img class="chat-image" src=${f.path} alt=${f.name} loading="lazy" /></a>`;
  if (f)
    return f.path
      ? html`<a href=${f.path} download=${f.name}>${f.name}</a>${sizeOf(f.size)}`
      : html`${f.name}${sizeOf(f.size)} <span class="muted">(a link elsewhere)</span>`;
  if (m.payload_type === 'CUSTOM_MESSAGE') return html`<code>${m.payload}</code>`;
  return html`<span class="chat-text">${m.payload}</span>`;
}

function Chat({ activity, meeting, s }: { activity: SessionActivity | null; meeting: Meeting; s: State }) {
  if (!activity || activity.chat.length === 0) return null;
  const name = (id: string) => nameOf(id, meeting, s);
  return html`
    <section aria-labelledby="chat-title">
      <h3 id="chat-title">Chat</h3>
      ${activity.chat_total > activity.chat.length && html`<p class="empty">The newest ${activity.chat.length} of ${activity.chat_total} messages.</p>`}
      <ol class="chat" data-testid="chat">
        ${activity.chat.map(
          (m) => html`
            <li data-chat-id=${m.id}>
              <div class="chat-head">
                <span class="muted">${time(m.created_at)}</span>
                <strong>${m.display_name ?? name(m.participant_id)}</strong>
                ${m.to.length > 0 && html`<span class="badge" title="A private message">to ${m.to.map(name).join(', ')}</span>`}
                ${m.channel && html`<span class="badge" title="A channel's message">#${m.channel.name}</span>`}
                ${m.pinned && html`<span class="badge">pinned</span>`} ${m.edited_at && html`<span class="muted">(edited)</span>`}
              </div>
              <div><${ChatContent} m=${m} /></div>
            </li>
          `,
        )}
      </ol>
    </section>
  `;
}

function MeetingDetail({ meeting, s }: { meeting: Meeting; s: State }) {
  const activity = s.activity?.meeting_id === meeting.id ? s.activity : null;
  return html`
    <section class="detail" aria-labelledby="meeting-title" data-testid="meeting-detail">
      <h2 id="meeting-title">${meeting.title ?? '(untitled)'} <code>${meeting.id}</code></h2>
      <p class="muted">
        ${meeting.status} · created ${time(meeting.created_at)}
        ${meeting.session ? ` · session ${shortId(meeting.session.id)} from ${time(meeting.session.started_at)}${meeting.session.ended_at ? ` to ${time(meeting.session.ended_at)}` : ' (running)'}` : ' · no session yet'}
      </p>
      <${Timeline} meeting=${meeting} events=${s.events} deliveries=${s.deliveries} now=${s.clock?.now ?? meeting.created_at} />
      <${Sessions} meeting=${meeting} />
      <${BreakoutRooms} meeting=${meeting} s=${s} />
      <${Participants} meeting=${meeting} tokens=${s.tokens} />
      <${Network} meeting=${meeting} events=${s.events} />
      <${WaitingRoom} meeting=${meeting} />
      <${Polls} activity=${activity} meeting=${meeting} s=${s} />
      <${Chat} activity=${activity} meeting=${meeting} s=${s} />
      <section aria-labelledby=${`recordings-${meeting.id}`}>
        <h3 id=${`recordings-${meeting.id}`}>Recordings</h3>
        <button type="button" onClick=${() => act('Starting a recording', () => v2(orgId(), 'POST', '/v2/recordings', { meeting_id: meeting.id }))}>
          Start recording
        </button>
        ${meeting.recordings.map((r) => html`<${RecordingCard} key=${r.id} r=${r} s=${s} />`)}
      </section>
      <section aria-labelledby=${`livestreams-${meeting.id}`}>
        <h3 id=${`livestreams-${meeting.id}`}>Livestreams</h3>
        <button
          type="button"
          onClick=${() => act('Creating a livestream', () => v2(orgId(), 'POST', `/v2/meetings/${meeting.id}/livestreams`, { name: livestreamName(meeting.title) }))}
        >
          Create livestream
        </button>
        ${meeting.livestreams.map((l) => html`<${LivestreamCard} key=${l.id} l=${l} s=${s} meeting=${meeting} />`)}
      </section>
    </section>
  `;
}

export function Meetings({ s }: { s: State }) {
  const meeting = s.overview?.meetings.find((m) => m.id === s.meetingId);
  return html`
    <section aria-labelledby="meetings-title">
      <h2 id="meetings-title">Meetings</h2>
      <${CreateMeeting} />
      <${MeetingList} s=${s} />
    </section>
    ${meeting ? html`<${MeetingDetail} meeting=${meeting} s=${s} />` : html`<p class="empty">Open a meeting to see its timeline, sessions, participants, recordings and livestreams.</p>`}
  `;
}

/** A livestream name from a meeting title: production takes only letters, digits, `-` and `_` there. */
function livestreamName(title: string | null | undefined): string {
  const base = (title ?? 'meeting').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'meeting';
  return `${base.slice(0, 64)}-live`;
}
