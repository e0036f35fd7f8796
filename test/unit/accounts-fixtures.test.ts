// Accounts in the fixtures (docs/realtimekit.md): the default account when a file lists none, an
// organization's account named by `account_id`, and the errors a file can hold.
import { describe, expect, it } from 'vitest';
import { accountsOf, parseFixtures } from '../../src/store/fixtures.js';
import { fixtures } from '../helpers/test-app.js';

const OTHER = '0123456789abcdef0123456789abcdef';
const DEFAULT = { id: '00000000000000000000000000000001', name: 'Emulator Account', api_tokens: ['emulator-api-key'] };

function withAccounts(accounts: unknown, orgAccount?: string): unknown {
  const f = fixtures() as unknown as { accounts?: unknown; organizations: Array<Record<string, unknown>> };
  f.accounts = accounts;
  if (orgAccount !== undefined) f.organizations[0]!.account_id = orgAccount;
  return f;
}

describe('accounts of a fixtures file', () => {
  it('a file without accounts has the default account, with the default token, holding every organization', () => {
    expect(accountsOf(parseFixtures(fixtures(), 'f'))).toEqual([DEFAULT]);
  });

  it('the default account is added when an organization belongs to it and the list lacks it', () => {
    const listed = { id: OTHER, api_tokens: ['other-token-1'] };
    expect(accountsOf(parseFixtures(withAccounts([listed]), 'f'))).toEqual([listed, DEFAULT]);
  });

  it('not when every organization names another account', () => {
    const listed = { id: OTHER, api_tokens: ['other-token-1'] };
    expect(accountsOf(parseFixtures(withAccounts([listed], OTHER), 'f'))).toEqual([listed]);
  });

  it.each([
    ['an account id that is not 32 hex digits', [{ id: 'ABC', api_tokens: ['token-123'] }], undefined, 'f: accounts[0].id: must be 32 lower-case hex digits'],
    ['an account without tokens', [{ id: OTHER, api_tokens: [] }], undefined, 'f: accounts[0].api_tokens'],
    [
      'an account listed twice',
      [
        { id: OTHER, api_tokens: ['token-123'] },
        { id: OTHER, api_tokens: ['token-456'] },
      ],
      undefined,
      'f: accounts[1].id: duplicate account id',
    ],
    [
      'a token of two accounts',
      [{ id: OTHER, api_tokens: ['emulator-api-key'] }],
      undefined,
      'f: accounts[1].api_tokens[0]: an API token belongs to one account only',
    ],
    [
      'an organization of an account the file does not hold',
      [{ id: OTHER, api_tokens: ['token-123'] }],
      'ffffffffffffffffffffffffffffffff',
      'f: organizations[0].account_id: not an account of this file',
    ],
  ])('refuses %s', (_name, accounts, orgAccount, message) => {
    expect(() => parseFixtures(withAccounts(accounts, orgAccount), 'f')).toThrow(message);
  });
});
