// Who is calling and what they may do: the user, a repository with the caller's permissions,
// organisation memberships, a collaborator's permission; and GitHub App installations with
// their expiring tokens.
import { json, message, notFound, type RouteContext, type Router } from '../http-router.ts';
import { isResult, parseNumber, requireRepo } from '../route-access.ts';

export interface IdentityOptions {
  /** lifetime of installation tokens */
  installationTokenTtlMs: () => number;
}

function user(context: RouteContext) {
  const caller = context.caller;
  if (!caller) return message(401, 'Requires authentication');
  if (caller.kind !== 'user') return message(403, 'Resource not accessible by integration');
  return json(200, { ...context.core.json.user(caller.account), name: caller.account.login });
}

function repository(context: RouteContext) {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  return json(200, context.core.json.fullRepository(repo, context.core.repos.permission(repo, context.caller)));
}

function membership(context: RouteContext) {
  const caller = context.caller;
  if (!caller) return message(401, 'Requires authentication');
  const [org, login] = context.params as [string, string];
  const organisation = context.core.accounts.find(org);
  if (!organisation || organisation.type !== 'Organization') return notFound();
  const asker = caller.kind === 'user' ? caller.account.login : undefined;
  const askerIsMember = asker !== undefined && context.core.accounts.membership(org, asker)?.state === 'active';
  if (asker?.toLowerCase() !== login.toLowerCase() && !askerIsMember) return message(403, `You must be a member of ${organisation.login} to see membership information for ${login}.`);
  const found = context.core.accounts.membership(org, login);
  const member = context.core.accounts.find(login);
  if (!found || !member) return notFound();
  return json(200, { state: found.state, role: found.role, organization: context.core.json.user(organisation), user: context.core.json.user(member) });
}

function collaboratorPermission(context: RouteContext) {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const member = context.core.accounts.find(context.params[2]!);
  if (!member) return message(404, `${context.params[2]} is not a user`);
  const role = context.core.repos.permissionOf(repo, member);
  const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
  return json(200, { permission, role_name: role, user: context.core.json.user(member) });
}

function repositoryInstallation(context: RouteContext) {
  if (context.caller?.kind !== 'app') return message(401, 'A JSON web token could not be decoded');
  const repo = context.core.repos.find(context.params[0]!, context.params[1]!);
  const installation = repo && context.core.apps.installationOn(repo, context.caller.app);
  return installation ? json(200, context.core.json.installation(installation)) : notFound();
}

/** The app's installation on an organisation (or user): what calls about the account itself use. */
function accountInstallation(context: RouteContext) {
  if (context.caller?.kind !== 'app') return message(401, 'A JSON web token could not be decoded');
  const account = context.core.accounts.find(context.params[0]!);
  const installation = account && context.core.apps.installationOf(account, context.caller.app);
  return installation ? json(200, context.core.json.installation(installation)) : notFound();
}

function accessToken(context: RouteContext, options: IdentityOptions) {
  if (context.caller?.kind !== 'app') return message(401, 'A JSON web token could not be decoded');
  const id = parseNumber(context.params[0]!);
  const installation = id === undefined ? undefined : context.core.apps.installation(id);
  if (!installation || installation.app !== context.caller.app) return notFound();
  const { token, expiresAt } = context.core.accounts.issueInstallationToken(installation, options.installationTokenTtlMs());
  const permissions = context.core.json.installation(installation).permissions;
  return json(201, { token, expires_at: expiresAt.toISOString(), permissions, repository_selection: installation.repositories === 'all' ? 'all' : 'selected' });
}

export function identityRoutes(router: Router, options: IdentityOptions): void {
  router
    .add('GET', '/user', user)
    .add('GET', '/repos/:owner/:repo', repository)
    .add('GET', '/orgs/:org/memberships/:user', membership)
    .add('GET', '/repos/:owner/:repo/collaborators/:user/permission', collaboratorPermission)
    .add('GET', '/repos/:owner/:repo/installation', repositoryInstallation)
    .add('GET', '/orgs/:org/installation', accountInstallation)
    .add('GET', '/users/:user/installation', accountInstallation)
    .add('POST', '/app/installations/:id/access_tokens', (context) => accessToken(context, options));
}
