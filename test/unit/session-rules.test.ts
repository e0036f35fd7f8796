// The session history rules as pure functions: stays, concurrency, the end, mutes, minutes,
// what ai_config asks for, the summary, the CSV files and the daywise figures.
import { describe, expect, it } from 'vitest';
import type { Meeting, Participant, Recording, Session, SessionChatMessage } from '../../src/domain/models.js';
import { chatCsv, transcriptCsv } from '../../src/domain/sessions/session-files.js';
import { daywise } from '../../src/domain/sessions/daywise.js';
import {
  aiWishes,
  endSession,
  joinSession,
  leaveSession,
  minutesOf,
  muteInSession,
  openSession,
  participantMs,
  presentIn,
  sessionMinutes,
  summarize,
} from '../../src/domain/sessions/session-rules.js';
import { spacedMicroTime } from '../../src/webhooks/payloads.js';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  id: 'm-1',
  orgId: 'o-1',
  title: 'Standup',
  preferredRegion: null,
  waitingRoom: false,
  recordOnStart: false,
  liveStreamOnStart: false,
  persistChat: false,
  summarizeOnEnd: false,
  status: 'ACTIVE',
  recordingConfig: null,
  aiConfig: null,
  createdAt: T0,
  updatedAt: T0,
  session: null,
  ...over,
});

const person = (id: string, name: string | null = id): Participant => ({
  id,
  orgId: 'o-1',
  meetingId: 'm-1',
  name,
  picture: null,
  customParticipantId: `c-${id}`,
  presetId: 'p',
  presetName: 'group_call_host',
  createdAt: T0,
  updatedAt: T0,
  joinedAt: null,
});

describe('stays', () => {
  it('a join opens a stay, a leave closes it, a rejoin opens another on the same participant', () => {
    let s = openSession('s-1', meeting(), T0);
    s = joinSession(s, person('a'), T0);
    s = leaveSession(s, 'a', T0 + MIN);
    s = joinSession(s, person('a'), T0 + 2 * MIN);
    expect(s.participants).toHaveLength(1);
    expect(s.participants[0]!.spans).toEqual([
      { joinedAt: T0, leftAt: T0 + MIN },
      { joinedAt: T0 + 2 * MIN, leftAt: null },
    ]);
    expect(presentIn(s).map((p) => p.participantId)).toEqual(['a']);
    expect(participantMs(s.participants[0]!, T0 + 5 * MIN)).toBe(4 * MIN);
  });

  it('keeps the most participants present at once', () => {
    let s = openSession('s-1', meeting(), T0);
    s = joinSession(s, person('a'), T0);
    s = joinSession(s, person('b'), T0);
    s = leaveSession(s, 'a', T0 + MIN);
    s = leaveSession(s, 'b', T0 + MIN);
    s = joinSession(s, person('c'), T0 + 2 * MIN);
    expect(s.maxConcurrent).toBe(2);
    expect(presentIn(s).map((p) => p.participantId)).toEqual(['c']);
  });

  it('a second leave after a rejoin closes only the new stay: the first keeps its end', () => {
    let s = openSession('s-1', meeting(), T0);
    s = joinSession(s, person('a'), T0);
    s = leaveSession(s, 'a', T0 + MIN);
    s = joinSession(s, person('a'), T0 + 2 * MIN);
    s = leaveSession(s, 'a', T0 + 5 * MIN);
    expect(s.participants[0]!.spans).toEqual([
      { joinedAt: T0, leftAt: T0 + MIN },
      { joinedAt: T0 + 2 * MIN, leftAt: T0 + 5 * MIN },
    ]);
    expect(sessionMinutes(s, T0 + 100 * MIN)).toBe(4);
  });

  it('a leave of someone not in the session changes nothing', () => {
    const s = joinSession(openSession('s-1', meeting(), T0), person('a'), T0);
    expect(leaveSession(s, 'zed', T0 + MIN)).toBe(s);
    const left = leaveSession(s, 'a', T0 + MIN);
    expect(leaveSession(left, 'a', T0 + 2 * MIN)).toBe(left);
  });

  it('the end closes every open stay and keeps its reason', () => {
    let s = openSession('s-1', meeting(), T0);
    s = joinSession(s, person('a'), T0);
    s = joinSession(s, person('b'), T0 + MIN);
    s = endSession(s, 'HOST_ENDED_MEETING', T0 + 3 * MIN);
    expect(s).toMatchObject({ endedAt: T0 + 3 * MIN, endReason: 'HOST_ENDED_MEETING', updatedAt: T0 + 3 * MIN });
    expect(presentIn(s)).toEqual([]);
    expect(sessionMinutes(s, T0 + 100 * MIN)).toBe(5);
  });

  it('a mute is kept on the named participants only, with allow_unmute', () => {
    let s = openSession('s-1', meeting(), T0);
    s = joinSession(s, person('a'), T0);
    s = joinSession(s, person('b'), T0);
    s = muteInSession(s, ['b'], false, T0 + MIN);
    expect(s.participants.map((p) => [p.participantId, p.mutedAt, p.allowUnmute])).toEqual([
      ['a', null, true],
      ['b', T0 + MIN, false],
    ]);
  });
});

describe('minutes', () => {
  it.each([
    [0, 0],
    [MIN, 1],
    [90_000, 1.5],
    [1, 0],
    [20_000, 0.3333],
    [348_582, 5.8097],
  ])('%i ms is %d minutes (four decimals)', (ms, minutes) => {
    expect(minutesOf(ms)).toBe(minutes);
  });
});

describe("what the meeting's ai_config asks for", () => {
  it.each([
    [{}, false, { transcript: false, summary: false, format: 'markdown', wordLimit: 500 }],
    [{ aiConfig: null }, false, { transcript: false, summary: false, format: 'markdown', wordLimit: 500 }],
    [{ aiConfig: { transcription: {} } }, false, { transcript: true, summary: false, format: 'markdown', wordLimit: 500 }],
    [{ aiConfig: { transcription: true } }, false, { transcript: false, summary: false, format: 'markdown', wordLimit: 500 }],
    [{ aiConfig: {} }, true, { transcript: false, summary: true, format: 'markdown', wordLimit: 500 }],
    [
      { aiConfig: { summarization: { text_format: 'plain_text', word_limit: 150 } } },
      false,
      { transcript: false, summary: true, format: 'plain_text', wordLimit: 150 },
    ],
    [
      { aiConfig: { summarization: { text_format: 'html', word_limit: 149 } } },
      false,
      { transcript: false, summary: true, format: 'markdown', wordLimit: 500 },
    ],
    [{ aiConfig: { summarization: { word_limit: 1001 } } }, false, { transcript: false, summary: true, format: 'markdown', wordLimit: 500 }],
  ])('%j, summarize_on_end %s → %j', (over, summarizeOnEnd, wishes) => {
    expect(aiWishes(meeting({ ...(over as Partial<Meeting>), summarizeOnEnd }))).toEqual(wishes);
  });

  it('takes a word_limit of 1000, the top of the documented range', () => {
    expect(aiWishes(meeting({ aiConfig: { summarization: { word_limit: 1000 } } })).wordLimit).toBe(1000);
  });
});

function withTranscript(lines: [string, string][]): Session {
  let s = openSession('s-1', meeting(), T0);
  for (const [id] of lines) if (!s.participants.some((p) => p.participantId === id)) s = joinSession(s, person(id), T0);
  return {
    ...s,
    transcript: lines.map(([id, text], i) => ({ at: T0 + i * 1000, participantId: id, customParticipantId: `c-${id}`, name: id, text, livePeerId: null })),
  };
}

describe('the summary', () => {
  it('plain text: the speakers with their lines and words, then what was said', () => {
    const s = withTranscript([
      ['ann', 'We ship on Friday'],
      ['ben', 'Agreed'],
      ['ann', 'Then the retro'],
    ]);
    expect(summarize(s, 'Planning', { format: 'plain_text', wordLimit: 500 })).toBe(
      [
        'Summary of Planning',
        '',
        '3 transcript lines from 2 speakers.',
        '',
        'Speakers:',
        '  ann: 2 lines, 7 words',
        '  ben: 1 line, 1 word',
        '',
        'What was said:',
        '  ann: We ship on Friday',
        '  ben: Agreed',
        '  ann: Then the retro',
        '',
      ].join('\n'),
    );
  });

  it('plain text without a title: the summary of the meeting, one line from one speaker', () => {
    const s = withTranscript([['ann', 'Hello']]);
    expect(summarize(s, null, { format: 'plain_text', wordLimit: 500 })).toBe(
      [
        'Summary of the meeting',
        '',
        '1 transcript line from 1 speaker.',
        '',
        'Speakers:',
        '  ann: 1 line, 1 word',
        '',
        'What was said:',
        '  ann: Hello',
        '',
      ].join('\n'),
    );
  });

  it('counts words as a reader does: spaces around and between them are not words', () => {
    const s = withTranscript([['ann', ' We ship  on Friday ']]);
    expect(summarize(s, 'Planning', { format: 'plain_text', wordLimit: 500 })).toBe(
      [
        'Summary of Planning',
        '',
        '1 transcript line from 1 speaker.',
        '',
        'Speakers:',
        '  ann: 1 line, 4 words',
        '',
        'What was said:',
        '  ann: We ship on Friday',
        '',
      ].join('\n'),
    );
  });

  it('plain text is cut at exactly word_limit words; lines that fill the limit end it with no empty line', () => {
    const line = 'one two three four five six seven eight nine ten';
    const s = withTranscript(Array.from({ length: 13 }, () => ['ann', line] as [string, string]));
    const text = summarize(s, 'Planning', { format: 'plain_text', wordLimit: 150 });
    expect(text.split(/\s+/).filter(Boolean)).toHaveLength(150);
    // 18 words of head, then 12 whole lines of 11 words: the limit is reached at the end of the 12th.
    expect(text).toBe(
      [
        'Summary of Planning',
        '',
        '13 transcript lines from 1 speaker.',
        '',
        'Speakers:',
        '  ann: 13 lines, 130 words',
        '',
        'What was said:',
        ...Array.from({ length: 12 }, () => `  ann: ${line}`),
        '',
      ].join('\n'),
    );
  });

  it('markdown is cut at exactly word_limit words, as a reader counts them: its marks (#, ##, -) are not words', () => {
    const line = 'one two three four five six seven eight nine ten';
    const s = withTranscript(Array.from({ length: 100 }, () => ['ann', line] as [string, string]));
    const text = summarize(s, null, { format: 'markdown', wordLimit: 150 });
    expect(text.split(/\s+/).filter((w) => w && !['#', '##', '-'].includes(w))).toHaveLength(150);
    // 19 words of head, then 11 whole lines of 11 words and 10 words of the 12th: the same words as
    // plain text gives for the same limit.
    expect(text).toBe(
      [
        '# Summary of the meeting',
        '',
        '100 transcript lines from 1 speaker.',
        '',
        '## Speakers',
        '- ann: 100 lines, 1000 words',
        '',
        '## What was said',
        ...Array.from({ length: 11 }, () => `- ann: ${line}`),
        '- ann: one two three four five six seven eight nine',
        '',
      ].join('\n'),
    );
  });
});

describe('the files', () => {
  const chatLine: SessionChatMessage = {
    id: 'c',
    participantId: 'a',
    displayName: null,
    payloadType: 'TEXT_MESSAGE',
    payload: 'hi',
    createdAt: T0,
    targets: [],
    channelId: null,
    channelIndex: null,
    pinned: false,
    editedAt: null,
  };

  it('chat CSV: quoted where a field has a comma, a quote or a line break', () => {
    const s: Session = {
      ...openSession('s-1', meeting(), T0),
      chat: [{ ...chatLine, id: 'c1', participantId: 'a', payload: 'a "b", c\r\nd' }],
    };
    expect(chatCsv(s)).toBe(
      'id,participantId,sessionId,meetingId,displayName,pinned,isEdited,payloadType,payload,createdAt\r\n' +
        `c1,a,s-1,m-1,,false,false,TEXT_MESSAGE,"a ""b"", c\r\nd",2026-01-01T10:00:00.000Z\r\n`,
    );
  });

  it('chat CSV: pinned and edited as kept, images and files by their kind, private and channel messages as rows like the others', () => {
    const s: Session = {
      ...openSession('s-1', meeting(), T0),
      chat: [
        { ...chatLine, id: 'c1', participantId: 'a', displayName: 'Ann', pinned: true, editedAt: T0 + 5 },
        { ...chatLine, id: 'c2', participantId: 'b', payloadType: 'IMAGE_MESSAGE', payload: 'https://x.test/i.png', targets: ['b', 'a'] },
        {
          ...chatLine,
          id: 'c3',
          participantId: 'b',
          payloadType: 'FILE_MESSAGE',
          payload: '{"link":"l","name":"n","size":1}',
          channelId: 'ch',
          channelIndex: 1,
        },
      ],
    };
    expect(chatCsv(s).split('\r\n').slice(1)).toEqual([
      'c1,a,s-1,m-1,Ann,true,true,TEXT_MESSAGE,hi,2026-01-01T10:00:00.000Z',
      'c2,b,s-1,m-1,,false,false,IMAGE_MESSAGE,https://x.test/i.png,2026-01-01T10:00:00.000Z',
      'c3,b,s-1,m-1,,false,false,FILE_MESSAGE,"{""link"":""l"",""name"":""n"",""size"":1}",2026-01-01T10:00:00.000Z',
      '',
    ]);
  });

  it('transcript CSV: the columns of the transcription guide', () => {
    expect(transcriptCsv(withTranscript([['ann', 'hi']]))).toBe(
      'Timestamp,Participant ID,User ID,Custom Participant ID,Participant Name,Transcript\r\n2026-01-01T10:00:00.000Z,ann,ann,c-ann,ann,hi\r\n',
    );
  });

  it("webhook expiries read as the guide's: a space and microseconds", () => {
    expect(spacedMicroTime(Date.parse('2022-12-13T07:08:39.051Z'))).toBe('2022-12-13 07:08:39.051000Z');
  });
});

describe('daywise figures', () => {
  const session = (start: number, minutes: number): Session => {
    let s = joinSession(openSession(`s-${start}`, meeting(), start), person('a'), start);
    s = endSession(s, 'ALL_PARTICIPANTS_LEFT', start + minutes * MIN);
    return s;
  };
  const recording = (invoked: number, recordedMs: number) => ({ invokedTime: invoked, recordedMs, spanStartedAt: null }) as Recording;

  it('groups by the UTC day a session or recording started; the range end is excluded', () => {
    const day0 = Date.parse('2026-03-01T00:00:00.000Z');
    const sessions = [session(day0 + 23 * 60 * MIN, 120), session(day0 + DAY, 1.5), session(day0 + 2 * DAY, 1), session(day0 - 1, 5)];
    const recordings = [recording(day0, 20_000), recording(day0 + 10, 20_000), recording(day0 + DAY, 60_000)];
    expect(daywise(sessions, recordings, day0, day0 + 2 * DAY, day0 + 10 * DAY)).toEqual({
      sessions: {
        count: 2,
        minutes: 121.5,
        days: [
          { day: day0, count: 1, minutes: 120 },
          { day: day0 + DAY, count: 1, minutes: 1.5 },
        ],
      },
      recordings: {
        count: 3,
        minutes: 1.6666,
        days: [
          { day: day0, count: 2, minutes: 0.6666 },
          { day: day0 + DAY, count: 1, minutes: 1 },
        ],
      },
    });
  });
});
