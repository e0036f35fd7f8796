// What a page may ask the session to keep, checked against the limits a state export holds: a
// poll's question and options, a chat channel's name, picture link and visibility.
import { describe, expect, it } from 'vitest';
import { SESSION_LIMITS } from '../../src/domain/models.js';
import { channelInputProblem } from '../../src/domain/sessions/chat-rules.js';
import { pollInputProblem } from '../../src/domain/sessions/session-rules.js';

const L = SESSION_LIMITS;

describe('pollInputProblem', () => {
  it.each([
    ['a question and one option', { question: 'Q', options: ['a'] }, undefined],
    [
      'both at their limits',
      { question: 'q'.repeat(L.pollQuestionChars), options: Array.from({ length: L.pollOptions }, () => 'o'.repeat(L.pollOptionChars)) },
      undefined,
    ],
    ['an empty question', { question: '', options: ['a'] }, `A poll's question holds 1 to ${L.pollQuestionChars} characters`],
    [
      'a question one over',
      { question: 'q'.repeat(L.pollQuestionChars + 1), options: ['a'] },
      `A poll's question holds 1 to ${L.pollQuestionChars} characters`,
    ],
    ['no option', { question: 'Q', options: [] }, `A poll has 1 to ${L.pollOptions} options`],
    ['one option too many', { question: 'Q', options: Array.from({ length: L.pollOptions + 1 }, () => 'o') }, `A poll has 1 to ${L.pollOptions} options`],
    ['an empty option', { question: 'Q', options: ['a', ''] }, `A poll's option holds 1 to ${L.pollOptionChars} characters`],
    ['an option one over', { question: 'Q', options: ['o'.repeat(L.pollOptionChars + 1)] }, `A poll's option holds 1 to ${L.pollOptionChars} characters`],
  ])('%s', (_, input, problem) => {
    expect(pollInputProblem(input)).toBe(problem);
  });
});

describe('channelInputProblem', () => {
  it.each([
    ['a name', { name: 'team' }, undefined],
    [
      'everything at its limit',
      { name: 'n'.repeat(L.channelNameChars), pictureUrl: 'p'.repeat(L.channelPictureChars), visibility: 'v'.repeat(L.channelVisibilityChars) },
      undefined,
    ],
    ['no picture', { name: 'team', pictureUrl: null }, undefined],
    ['an empty name', { name: '' }, `A channel's name holds 1 to ${L.channelNameChars} characters`],
    ['a name one over', { name: 'n'.repeat(L.channelNameChars + 1) }, `A channel's name holds 1 to ${L.channelNameChars} characters`],
    [
      'a picture link one over',
      { name: 'team', pictureUrl: 'p'.repeat(L.channelPictureChars + 1) },
      `A channel's picture link holds at most ${L.channelPictureChars} characters`,
    ],
    [
      'a visibility one over',
      { name: 'team', visibility: 'v'.repeat(L.channelVisibilityChars + 1) },
      `A channel's visibility holds at most ${L.channelVisibilityChars} characters`,
    ],
  ])('%s', (_, input, problem) => {
    expect(channelInputProblem(input)).toBe(problem);
  });
});
