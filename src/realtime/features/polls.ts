// The meeting's polls as the pages see them: the session's polls, a page starting one, and each new
// poll told to every page, whoever started it.
import type { DomainEvent } from '../../domain/events.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { pollView } from '../room-views.js';

const { polls: POLLS } = SDK_EVENTS;

export class PollsFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [POLLS.getPolls, (p, id) => p.send(POLLS.getPolls, id, 'socket.polls.GetPollsResponse', { polls: this.pollsOf(p) })],
    [POLLS.createPoll, (p, id, b) => this.create(p, id, b)],
    [POLLS.votePoll, () => Promise.reject(new Unserved('Voting in polls is not emulated'))],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'poll.created') this.state.tell(e.meeting.id, POLLS.createPoll, 'socket.polls.UpdatePollResponse', { poll: pollView(e.poll) });
  }

  private pollsOf(peer: Peer) {
    return (this.state.sessionOf(this.state.meeting(peer.meetingId))?.polls ?? []).map(pollView);
  }

  /** A page starts a poll in the LIVE session: kept with the session, told to every page (the asker included). */
  private create(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ question: string; options: string[]; anonymous: boolean; hide_votes: boolean }>('socket.polls.NewPollRequest', payload);
    if (!peer.roomJoined) throw new Unserved('Join the room before starting a poll');
    this.state.actingFor(peer, id, () =>
      this.state.deps.history.createPoll(
        peer.claims.orgId,
        peer.meetingId,
        { question: request.question, options: request.options, anonymous: request.anonymous, hideVotes: request.hide_votes },
        peer.participantId,
      ),
    );
  }
}
