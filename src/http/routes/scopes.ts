// Scope reports (spec §4.2, DESIGN.md §5): reports by commit and by pull request number, the
// deprecated POST, and the two read-backs.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommitParams, PullParams } from '../../domain/identifiers.ts';
import { ScopeReportBody, toScopeReport } from '../../domain/scopes/scope-report.ts';
import type { Store } from '../../storage/store.ts';
import { readCommitScopes, readPullScopes, reportCommitScopes, reportPullScopes } from '../../services/scope-reports.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { CommitScopesBody, PullScopesBody } from './scope-bodies.ts';
import { emptyResponse, errorResponse, errorResponses, jsonResponse } from './schemas.ts';

const tags = ['scopes'];
const writers = security('CIApplicationKey', 'ServiceTokenBearerAuth');
const readers = security('CIApplicationKey', 'AdminApplicationKey', 'HostingTokenBearerAuth', 'ServiceTokenBearerAuth');
const REPORTED = emptyResponse('The report is stored; it replaces the previous one in full.');
const CLOSED = errorResponse('The pull request is known to be closed or merged: a report by number is refused.', 'pull_request_closed');
const BY_NUMBER = 'Prefer the report by commit: a report by number does not record which revision it was computed for, and the last to arrive wins. Refused (409) for a pull request known to be closed or merged.';

async function markDeprecated(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('deprecation', 'true');
}

export const scopeRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  const ci = guard(auth, 'ci');
  const byNumber = {
    ...ci,
    schema: { tags, security: writers, params: PullParams, body: ScopeReportBody, response: { 204: REPORTED, ...errorResponses, 409: CLOSED } },
  } as const;

  app.put('/v1/repos/:owner/:repository/commits/:sha/scopes', {
    ...ci,
    schema: {
      operationId: 'put_commit_scopes',
      tags,
      summary: 'Report the scopes of a commit',
      description: 'Send the head commit of the pull request, not a merge commit the CI job checked out. The report replaces the previous one for that commit in full and applies to every open pull request whose head it is.',
      security: writers,
      params: CommitParams,
      body: ScopeReportBody,
      response: { 204: REPORTED, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, repository, sha } = request.params;
    await reportCommitScopes(store, owner, repository, sha, toScopeReport(request.body));
    return reply.code(204).send(null);
  });

  app.put('/v1/repos/:owner/:repository/pulls/:number/scopes', {
    ...byNumber,
    schema: { ...byNumber.schema, operationId: 'put_ci_scopes_repos__owner___repository__pulls__number__scopes_put', summary: 'Report the scopes of a pull request', description: BY_NUMBER },
  }, async (request, reply) => {
    const { owner, repository, number } = request.params;
    await reportPullScopes(store, owner, repository, number, toScopeReport(request.body));
    return reply.code(204).send(null);
  });

  app.post('/v1/repos/:owner/:repository/pulls/:number/scopes', {
    ...byNumber,
    onRequest: [markDeprecated, ci.onRequest],
    schema: {
      ...byNumber.schema,
      operationId: 'set_ci_scopes_repos__owner___repository__pulls__number__scopes_post',
      summary: 'Report the scopes of a pull request (deprecated)',
      description: `Deprecated: answers with \`Deprecation: true\`; behaves as the PUT. ${BY_NUMBER}`,
      deprecated: true,
    },
  }, async (request, reply) => {
    const { owner, repository, number } = request.params;
    await reportPullScopes(store, owner, repository, number, toScopeReport(request.body));
    return reply.code(204).send(null);
  });

  app.get('/v1/repos/:owner/:repository/pulls/:number/scopes', {
    ...guard(auth, 'scope_read'),
    schema: {
      operationId: 'get_pull_request_scopes',
      tags,
      summary: 'Read the effective scopes of a pull request',
      description: 'The latest to arrive of its report by number and the report of its current head commit. Hosting-platform tokens need read access to the repository.',
      security: readers,
      params: PullParams,
      response: { 200: jsonResponse('The effective scopes: of the report by number or of the head commit, whichever arrived last.', PullScopesBody), ...errorResponses },
    },
  }, async (request) => {
    const { owner, repository, number } = request.params;
    const scopes = await readPullScopes(store, owner, repository, number);
    return { pull_request: number, head_sha: scopes.headSha, scopes: scopes.scopes, all_scopes: scopes.allScopes, source: scopes.source, reported_at: scopes.reportedAt?.toISOString() ?? null };
  });

  app.get('/v1/repos/:owner/:repository/commits/:sha/scopes', {
    ...guard(auth, 'scope_read'),
    schema: {
      operationId: 'get_commit_scopes',
      tags,
      summary: 'Read the scope report of a commit',
      description: 'Hosting-platform tokens need read access to the repository.',
      security: readers,
      params: CommitParams,
      response: { 200: jsonResponse('The report stored for the commit.', CommitScopesBody), ...errorResponses },
    },
  }, async (request) => {
    const { owner, repository, sha } = request.params;
    const report = await readCommitScopes(store, owner, repository, sha);
    return { sha: sha.toLowerCase(), scopes: report.scopes, all_scopes: report.allScopes, reported_at: report.reportedAt.toISOString() };
  });
};
