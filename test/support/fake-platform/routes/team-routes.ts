// Teams of an organisation: a team, its members (paginated) and one user's membership. Seen by
// the organisation's active members and by apps installed on it; anyone else gets a 404.
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { paginate } from '../pagination.ts';
import type { TeamRecord } from '../platform-model.ts';

function visibleTeam(context: RouteContext): TeamRecord | RouteResult {
  const caller = context.caller;
  if (!caller) return message(401, 'Requires authentication');
  const [org, slug] = context.params as [string, string];
  const team = context.core.teams.find(org, slug);
  if (!team) return notFound();
  const sees = caller.kind === 'installation' ? caller.installation.account === team.organisation : caller.kind === 'user' && context.core.accounts.membership(org, caller.account.login)?.state === 'active';
  return sees ? team : notFound();
}

function isTeam(value: TeamRecord | RouteResult): value is TeamRecord {
  return 'slug' in value;
}

function team(context: RouteContext): RouteResult {
  const found = visibleTeam(context);
  return isTeam(found) ? json(200, context.core.pullJsons.team(found)) : found;
}

function members(context: RouteContext): RouteResult {
  const found = visibleTeam(context);
  if (!isTeam(found)) return found;
  const role = context.query.get('role') ?? 'all';
  const people = [...found.members.values()].filter((m) => role === 'all' || m.role === role).map((m) => m.account);
  const url = `${context.core.json.apiUrl()}/orgs/${found.organisation.login}/teams/${found.slug}/members`;
  const { page, headers } = paginate(people, context.query, url);
  return json(200, page.map((account) => context.core.json.user(account)), headers);
}

function membership(context: RouteContext): RouteResult {
  const found = visibleTeam(context);
  if (!isTeam(found)) return found;
  const member = found.members.get(context.params[2]!.toLowerCase());
  if (!member) return notFound();
  const url = `${context.core.json.apiUrl()}/organizations/${found.organisation.id}/team/${found.id}/memberships/${member.account.login}`;
  return json(200, { url, role: member.role, state: 'active' });
}

export function teamRoutes(router: Router): void {
  router
    .add('GET', '/orgs/:org/teams/:team', team)
    .add('GET', '/orgs/:org/teams/:team/members', members)
    .add('GET', '/orgs/:org/teams/:team/memberships/:user', membership);
}
