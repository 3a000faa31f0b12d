// Teams of organisations: who is in them (as members or maintainers), for review requests to a
// team and for the rules engine's `@org/team` logins.
import type { Accounts } from './accounts.ts';
import type { IdSequence } from './id-sequence.ts';
import type { Account, TeamRecord } from './platform-model.ts';

export class Teams {
  private readonly bySlug = new Map<string, TeamRecord>();

  constructor(
    private readonly accounts: Accounts,
    private readonly ids: IdSequence,
  ) {}

  /** A team of `organisation` (its slug: the name in lower case, spaces as hyphens). */
  create(organisation: Account, name: string, members: Account[] = []): TeamRecord {
    if (organisation.type !== 'Organization') throw new Error(`${organisation.login} is not an organisation`);
    const slug = name.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^-|-$/g, '');
    const key = `${organisation.login}/${slug}`.toLowerCase();
    if (this.bySlug.has(key)) throw new Error(`team ${key} exists`);
    const team: TeamRecord = { id: this.ids.next(), organisation, slug, name, members: new Map() };
    for (const member of members) this.addMember(team, member);
    this.bySlug.set(key, team);
    return team;
  }

  find(organisation: string, slug: string): TeamRecord | undefined {
    return this.bySlug.get(`${organisation}/${slug}`.toLowerCase());
  }

  addMember(team: TeamRecord, account: Account, role: 'member' | 'maintainer' = 'member'): void {
    team.members.set(account.login.toLowerCase(), { account, role });
    // A team member is a member of its organisation.
    if (!this.accounts.membership(team.organisation.login, account.login)) this.accounts.setMembership(team.organisation.login, account.login, { role: 'member', state: 'active' });
  }

  removeMember(team: TeamRecord, login: string): void {
    team.members.delete(login.toLowerCase());
  }
}
