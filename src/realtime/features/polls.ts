// The meeting's polls as the pages see them: the session's polls, a page starting one or voting,
// and each new poll and each vote told to every page, whoever started or cast it (a page, the
// REST API, a scripted participant through the control API).
import type { DomainEvent } from '../../domain/events.js';
import type { SessionPoll } from '../../domain/models.js';
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
    [POLLS.votePoll, (p, id, b) => this.vote(p, id, b)],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    // The SDK reads a poll from createPoll, updatePoll and votePoll alike: a new poll comes as
    // createPoll, a vote as updatePoll.
    if (e.type === 'poll.created') this.tellEach(e.meeting.id, POLLS.createPoll, e.poll);
    else if (e.type === 'poll.voted') this.tellEach(e.meeting.id, POLLS.updatePoll, e.poll);
  }

  /** The poll to every joined page, each seeing it as its own participant may (pollView); the page that caused it hears it as the answer. */
  private tellEach(meetingId: string, event: number, poll: SessionPoll): void {
    const acting = this.state.acting;
    for (const peer of this.state.pages(meetingId))
      if (peer.roomJoined && !peer.gone)
        peer.send(event, peer === acting?.peer ? acting.id : this.state.newId(), 'socket.polls.UpdatePollResponse', {
          poll: pollView(poll, peer.participantId, this.creatorName(peer, poll)),
        });
  }

  private pollsOf(peer: Peer) {
    // A page not in the meeting (waiting, rejected) reads none of its polls.
    if (!peer.roomJoined) return [];
    return (this.state.sessionOf(this.state.meeting(peer.meetingId))?.polls ?? []).map((poll) =>
      pollView(poll, peer.participantId, this.creatorName(peer, poll)),
    );
  }

  /** Who started a poll, by name: a participant (their page, or a bot), or the organization for a poll the REST API started. */
  private creatorName(peer: Peer, poll: SessionPoll): string {
    const orgId = peer.claims.orgId;
    if (poll.createdBy === orgId) return this.state.deps.organizationName(orgId);
    return this.state.deps.participants.find(orgId, poll.createdBy)?.name ?? 'Participant';
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

  /**
   * A page votes (the SDK's polls.vote(pollId, index)): counted in the session's poll and told to
   * every page. An unknown poll or option, a second vote, a preset that may not vote: the SDK's
   * error reply, nothing counted.
   */
  private vote(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ poll_id: string; index: number }>('socket.polls.VotePollRequest', payload);
    if (!peer.roomJoined) throw new Unserved('Join the room before voting in a poll');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.vote(meeting, peer.participantId, request.poll_id, request.index));
  }
}
