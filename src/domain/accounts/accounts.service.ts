// Accounts: the tenants of the RealtimeKit API. An account holds API tokens and apps; an app is
// one of the emulator's organizations (app id = organization id), so everything the v2 API keeps
// per organization is what RealtimeKit keeps per app. Which account an organization belongs to,
// and when it became an app, is kept here, next to the accounts, rather than on the organization.
import { createHash } from 'node:crypto';
import { errors } from '../../core/errors.js';
import { accountsOf, DEFAULT_ACCOUNT_ID, type AccountFixture, type Fixtures } from '../../store/fixtures.js';
import type { DomainContext } from '../context.js';
import type { Organization } from '../models.js';
import type { OrganizationsService } from '../organizations/organizations.service.js';

export interface Account {
  id: string;
  name: string;
  apiTokens: string[];
}

/** What an app is beyond its organization: its account and when it was made. */
interface Membership {
  accountId: string;
  createdAt: number;
}

export interface App {
  org: Organization;
  accountId: string;
  createdAt: number;
}

/** Tokens are looked up by their hash, so a lookup's time does not depend on how much of a wrong token matches. */
const digest = (token: string) => createHash('sha256').update(token).digest('base64');

export class AccountsService {
  private accounts = new Map<string, Account>();
  private byToken = new Map<string, string>();
  private members = new Map<string, Membership>();

  constructor(
    private readonly ctx: DomainContext,
    private readonly organizations: OrganizationsService,
  ) {}

  /** Replaces every account and membership with the document's (a load, a reset, a state import). */
  load(doc: Fixtures): void {
    this.accounts = new Map();
    this.byToken = new Map();
    this.members = new Map();
    for (const a of accountsOf(doc)) {
      this.accounts.set(a.id, { id: a.id, name: a.name ?? `Account ${a.id.slice(-8)}`, apiTokens: [...a.api_tokens] });
      for (const t of a.api_tokens) this.byToken.set(digest(t), a.id);
    }
    const now = this.ctx.clock.now();
    for (const o of doc.organizations) {
      this.members.set(o.id, { accountId: o.account_id ?? DEFAULT_ACCOUNT_ID, createdAt: o.created_at === undefined ? now : Date.parse(o.created_at) });
    }
  }

  /** The account an API token opens, or undefined. */
  authenticate(token: string): Account | undefined {
    const id = this.byToken.get(digest(token));
    return id === undefined ? undefined : this.accounts.get(id);
  }

  /** The account new organizations join when none is named: the default account, else the first one. */
  defaultAccountId(): string {
    return this.accounts.has(DEFAULT_ACCOUNT_ID) ? DEFAULT_ACCOUNT_ID : this.accounts.keys().next().value!;
  }

  /** An app of the account, or undefined (an unknown id and another account's app look the same). */
  app(accountId: string, appId: string): App | undefined {
    const m = this.members.get(appId);
    const org = m?.accountId === accountId ? this.organizations.get(appId) : undefined;
    return org && m ? { org, ...m } : undefined;
  }

  /** The account's apps, oldest first. */
  apps(accountId: string): App[] {
    const out: App[] = [];
    for (const org of this.organizations.list()) {
      const m = this.members.get(org.id);
      if (m?.accountId === accountId) out.push({ org, ...m });
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The account of an organization (every organization has one). */
  accountOf(orgId: string): string {
    return this.members.get(orgId)?.accountId ?? this.defaultAccountId();
  }

  createdAt(orgId: string): number | undefined {
    return this.members.get(orgId)?.createdAt;
  }

  /**
   * A new organization in an account: the one way organizations are made after a load (control
   * API, apps API), so none is ever without an account. 404 for an account the emulator does not hold.
   */
  createApp(name: string | undefined, accountId = this.defaultAccountId()): App {
    if (!this.accounts.has(accountId)) throw errors.notFoundMessage(`No account found with id ${accountId}`);
    const org = this.organizations.create(name);
    const m: Membership = { accountId, createdAt: this.ctx.clock.now() };
    this.members.set(org.id, m);
    return { org, ...m };
  }

  /** The accounts as a state export holds them. */
  export(): AccountFixture[] {
    return [...this.accounts.values()].map((a) => ({ id: a.id, name: a.name, api_tokens: [...a.apiTokens] }));
  }
}
