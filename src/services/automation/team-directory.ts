// Members of the teams a configuration names (`@org/team` in conditions), read from the platform
// and kept a few minutes: teams change rarely, and every pull request of a repository asks for
// the same ones. A team the platform does not know is remembered as such (null).
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { ReadCounter } from './pull-snapshot-reader.ts';

const TTL_MS = 5 * 60_000;
const MAX_TEAMS = 10_000;
/** A configuration naming more teams than this has the rest read as unknown (pending), not fetched. */
const MAX_TEAMS_PER_EVALUATION = 20;

export class TeamDirectory {
  private readonly known = new Map<string, { members: readonly string[] | null; until: number }>();

  constructor(
    private readonly platform: HostingPlatform,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Members by `org/team`; teams past the bound are left out (conditions on them stay pending). */
  async members(teams: readonly string[], counter: ReadCounter): Promise<Map<string, readonly string[] | null>> {
    const found = new Map<string, readonly string[] | null>();
    for (const team of teams.slice(0, MAX_TEAMS_PER_EVALUATION)) found.set(team, await this.team(team, counter));
    return found;
  }

  private async team(key: string, counter: ReadCounter): Promise<readonly string[] | null> {
    const now = this.clock();
    const cached = this.known.get(key);
    if (cached && cached.until > now) return cached.members;
    const [org, slug] = key.split('/') as [string, string];
    counter.reads++;
    const members = await this.platform.teamMembers(org, slug);
    if (this.known.size >= MAX_TEAMS) this.known.clear();
    this.known.set(key, { members: members?.map((login: string) => login.toLowerCase()) ?? null, until: now + TTL_MS });
    return this.known.get(key)!.members;
  }
}
