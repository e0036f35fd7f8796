// Votes in polls, driven from Node the way the SDK drives the socket (polls.votePoll with the
// poll's id and the option's index): counted in the session's poll, told to every page as an
// updatePoll, in the control API's poll reading; a bot votes through the control API. Bad input (an
// unknown poll or option, a second vote, a preset that may not vote, a page not yet in the room) is
// answered with the SDK's error reply naming the reason, is logged once, and changes nothing.
// A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { polls: POLLS } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'poll votes', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

const control = (method: string, path: string, body?: unknown) => controlOf(emu)(method, `/_emulator${path}`, body);

/** A page of a participant, its socket open; joined to the room unless told otherwise. */
async function page(meetingId: string, p: Person, join = true): Promise<SdkSocket> {
  const s = await sockets.open(emu.url, meetingId, p);
  if (join) await s.joinRoom(p);
  return s;
}

interface PollView {
  poll_id: string;
  options: { text: string; count?: number; votes: { user_id: string; name: string }[] }[];
  votes: string[];
}

function vote(s: SdkSocket, pollId: string, index: number): Promise<ProtoObject> {
  return s.request(POLLS.votePoll, 'socket.polls.VotePollRequest', { poll_id: pollId, index }, 'socket.polls.UpdatePollResponse');
}

async function polls(meetingId: string): Promise<unknown[]> {
  const { status, body } = await control('GET', `/meetings/${meetingId}/polls`);
  expect(status).toBe(200);
  return body.polls as unknown[];
}

/** A meeting with Ada and Bob's pages in it, and a poll Ada's backend started. */
async function meetingWithPoll(hideVotes = false) {
  const m = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Lunch' })).id;
  const [ada, bob] = [await addPerson(emu, m, 'Ada'), await addPerson(emu, m, 'Bob')];
  const a = await page(m, ada);
  const b = await page(m, bob);
  const created = await rest<{ poll: { id: string } }>('POST', `/v2/meetings/${m}/active-session/poll`, {
    question: 'Lunch?',
    options: ['Pizza', 'Salad'],
    hide_votes: hideVotes,
  });
  await b.push(POLLS.createPoll, 'socket.polls.UpdatePollResponse');
  return { m, ada, bob, a, b, pollId: created.poll.id };
}

describe('who started a poll', () => {
  it("is named as the kits show it (\"Poll by …\"): a page's participant by name, the REST API's by the organization's name; their id beside it", async () => {
    const { m, a, b } = await meetingWithPoll();
    const org = emu.deps.services.organizations.get(emu.orgId)!;
    const byApi = (await a.request(POLLS.getPolls, null, {}, 'socket.polls.GetPollsResponse')).polls as { created_by: string; created_by_user_id: string }[];
    expect(byApi.map((p) => [p.created_by, p.created_by_user_id])).toEqual([[org.name, org.id]]);
    await a.request(POLLS.createPoll, 'socket.polls.NewPollRequest', { question: 'Tea?', options: ['Yes', 'No'] }, 'socket.polls.UpdatePollResponse');
    const told = (await b.push(POLLS.createPoll, 'socket.polls.UpdatePollResponse', (x) => (x.poll as PollView & { question: string }).question === 'Tea?'))
      .poll as {
      created_by: string;
      created_by_user_id: string;
    };
    const ada = (await rest<{ data?: unknown; id: string; name: string }[]>('GET', `/v2/meetings/${m}/participants`)).find((p) => p.name === 'Ada')!;
    expect([told.created_by, told.created_by_user_id]).toEqual(['Ada', ada.id]);
  });
});

describe('a vote', () => {
  it('from a page is counted in the session and told to every page (the voter hears it as the answer); a bot votes through the control API', async () => {
    const { m, ada, bob, a, b, pollId } = await meetingWithPoll();
    const answer = (await vote(b, pollId, 1)).poll as PollView;
    expect(answer).toMatchObject({
      poll_id: pollId,
      options: [
        { text: 'Pizza', count: 0, votes: [] },
        { text: 'Salad', count: 1, votes: [{ user_id: bob.id, name: 'Bob' }] },
      ],
      votes: [bob.id],
    });
    const told = (await a.push(POLLS.updatePoll, 'socket.polls.UpdatePollResponse')).poll as PollView;
    expect(told).toEqual(answer);

    const carl = await addPerson(emu, m, 'Carl');
    expect((await control('POST', `/meetings/${m}/participants/${carl.id}/join`)).status).toBe(200);
    const byBot = await control('POST', `/meetings/${m}/participants/${carl.id}/polls/${pollId}/vote`, { option: 1 });
    expect(byBot).toEqual({
      status: 200,
      body: {
        id: pollId,
        question: 'Lunch?',
        options: [
          { text: 'Pizza', count: 0, votes: [] },
          {
            text: 'Salad',
            count: 2,
            votes: [
              { id: bob.id, name: 'Bob' },
              { id: carl.id, name: 'Carl' },
            ],
          },
        ],
        anonymous: false,
        hide_votes: false,
        created_by: expect.any(String) as string,
        voted: [bob.id, carl.id],
      },
    });
    for (const s of [a, b]) {
      const seen = (await s.push(POLLS.updatePoll, 'socket.polls.UpdatePollResponse', (x) => (x.poll as PollView).votes.length === 2)).poll as PollView;
      expect(seen.options.map((o) => o.count)).toEqual([0, 2]);
    }
    await vote(a, pollId, 0);
    // The session's polls as the control API reads them, in production's Poll shape.
    expect(await polls(m)).toMatchObject([
      { id: pollId, options: [{ count: 1, votes: [{ id: ada.id, name: 'Ada' }] }, { count: 2 }], voted: [bob.id, carl.id, ada.id] },
    ]);
    // A page that joins later reads the votes with the polls.
    const dan = await addPerson(emu, m, 'Dan');
    const d = await page(m, dan);
    const read = await d.request(POLLS.getPolls, null, {}, 'socket.polls.GetPollsResponse');
    expect((read.polls as PollView[])[0]!.options.map((o) => o.count)).toEqual([1, 2]);
  });

  it('in a poll that hides its votes: a page sees the counts only once its participant voted; the REST reading always', async () => {
    const { m, a, b, pollId } = await meetingWithPoll(true);
    const answer = (await vote(b, pollId, 0)).poll as PollView;
    expect(answer.options.map((o) => o.count)).toEqual([1, 0]);
    const told = (await a.push(POLLS.updatePoll, 'socket.polls.UpdatePollResponse')).poll as PollView;
    expect(told.options).toEqual([
      { text: 'Pizza', votes: [] },
      { text: 'Salad', votes: [] },
    ]);
    expect(told.votes).toHaveLength(1);
    const after = (await vote(a, pollId, 1)).poll as PollView;
    expect(after.options.map((o) => o.count)).toEqual([1, 1]);
    expect(await polls(m)).toMatchObject([{ options: [{ count: 1 }, { count: 1 }] }]);
  });
});

describe('a vote is refused, counted nowhere, told to nobody', () => {
  it('on an unknown poll, an unknown option, a second time; each answered with the reason, the refusals logged once', async () => {
    const { m, bob, a, b, pollId } = await meetingWithPoll();
    await vote(b, pollId, 0);
    const before = await polls(m);
    const info = vi.spyOn(emu.deps.logger, 'info');

    await expect(vote(b, 'no-such-poll', 0)).rejects.toThrow(/^No poll found with id no-such-poll in session [0-9a-f-]{36}$/);
    await expect(vote(a, pollId, 2)).rejects.toThrow(`Poll ${pollId} has no option 2: its options are 0 to 1`);
    await expect(vote(b, pollId, 1)).rejects.toThrow(`Participant ${bob.id} already voted in poll ${pollId}`);
    await expect(vote(b, pollId, 0)).rejects.toThrow(`Participant ${bob.id} already voted in poll ${pollId}`);

    expect(await polls(m)).toEqual(before);
    // No page heard of a vote after Bob's first one.
    expect(a.frames.filter((f) => f.event === POLLS.updatePoll)).toHaveLength(1);
    const refused = info.mock.calls
      .filter(([, msg]) => msg === 'SDK request refused')
      .map(([fields]) => fields as { peer: string; event: number; reason: string });
    // One line per socket and kind of request: Bob's three refusals are one line, Ada's one.
    expect(refused).toEqual([
      { peer: 'peer-bob', event: POLLS.votePoll, reason: expect.stringMatching(/^No poll found with id no-such-poll/) as string },
      { peer: 'peer-ada', event: POLLS.votePoll, reason: `Poll ${pollId} has no option 2: its options are 0 to 1` },
    ]);
  });

  it('from a preset that may not vote, and from a page that has not joined the room', async () => {
    const { m, a, pollId } = await meetingWithPoll();
    const presets = await rest<{ id: string; name: string }[]>('GET', '/v2/presets');
    const viewer = presets.find((p) => p.name === 'webinar_viewer')!;
    await rest('PATCH', `/v2/presets/${viewer.id}`, { permissions: { polls: { can_vote: false } } });
    const vic = await addPerson(emu, m, 'Vic', 'webinar_viewer');
    const v = await page(m, vic);
    const before = await polls(m);
    await expect(vote(v, pollId, 0)).rejects.toThrow(
      `Participant ${vic.id}'s preset webinar_viewer may not vote in polls (permissions.polls.can_vote is false)`,
    );
    const eve = await addPerson(emu, m, 'Eve');
    const e = await page(m, eve, false);
    await expect(vote(e, pollId, 0)).rejects.toThrow('Join the room before voting in a poll');
    expect(await polls(m)).toEqual(before);
    expect(a.frames.filter((f) => f.event === POLLS.updatePoll)).toHaveLength(0);
  });

  it('through the control API: the same reasons in its error shape, and a participant not in the meeting', async () => {
    const { m, bob, pollId } = await meetingWithPoll();
    const carl = await addPerson(emu, m, 'Carl');
    const path = (pid: string, poll = pollId) => `/meetings/${m}/participants/${pid}/polls/${poll}/vote`;
    expect(await control('POST', path(carl.id), { option: 0 })).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: `Participant ${carl.id} is not in meeting ${m}` } },
    });
    expect((await control('POST', `/meetings/${m}/participants/${carl.id}/join`)).status).toBe(200);
    const before = await polls(m);
    expect(await control('POST', path(carl.id, 'nope'), { option: 0 })).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    expect(await control('POST', path(carl.id), { option: 5 })).toMatchObject({
      status: 400,
      body: { error: { message: `Poll ${pollId} has no option 5: its options are 0 to 1` } },
    });
    expect(await control('POST', path(carl.id), { option: -1 })).toMatchObject({ status: 400 });
    expect(await control('POST', path(carl.id), { option: 0.5 })).toMatchObject({ status: 400 });
    expect(await polls(m)).toEqual(before);
    expect((await control('POST', path(bob.id), { option: 0 })).status).toBe(200);
    expect(await control('POST', path(bob.id), { option: 1 })).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: `Participant ${bob.id} already voted in poll ${pollId}` } },
    });
    expect(await control('GET', `/meetings/${crypto.randomUUID()}/polls`)).toMatchObject({ status: 404 });
  });
});

describe('a poll started from a page is refused, kept nowhere, told to nobody', () => {
  it('without a question or an option, past the limits, or from a preset that may not create polls', async () => {
    const { m, a, b } = await meetingWithPoll();
    const before = await polls(m);
    const told = () => b.frames.filter((f) => f.event === POLLS.createPoll).length;
    const toldBefore = told();
    const start = (s: SdkSocket, question: string, options: string[]) =>
      s.request(POLLS.createPoll, 'socket.polls.NewPollRequest', { question, options, anonymous: false, hide_votes: false }, 'socket.polls.UpdatePollResponse');
    await expect(start(a, 'Lunch?', [])).rejects.toThrow('A poll has 1 to 100 options');
    await expect(start(a, '', ['yes'])).rejects.toThrow("A poll's question holds 1 to 1000 characters");
    await expect(start(a, 'q'.repeat(1001), ['yes'])).rejects.toThrow("A poll's question holds 1 to 1000 characters");
    await expect(start(a, 'Lunch?', ['yes', 'o'.repeat(256)])).rejects.toThrow("A poll's option holds 1 to 255 characters");
    // A preset whose permissions.polls.can_create is false (the fixtures' group_call_participant).
    const pat = await addPerson(emu, m, 'Pat', 'group_call_participant');
    const p = await page(m, pat);
    await expect(start(p, 'Mine?', ['yes'])).rejects.toThrow(
      `Participant ${pat.id}'s preset group_call_participant may not create polls (permissions.polls.can_create is false)`,
    );
    expect(await polls(m)).toEqual(before);
    // Bob, who asked nothing, heard of no new poll.
    expect(told()).toBe(toldBefore);
    // The state still exports.
    expect((await control('GET', '/state')).status).toBe(200);
  });
});
