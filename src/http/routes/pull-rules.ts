// A pull request's rules and conditions as its Summary shows them (DESIGN.md §14): the last
// evaluation the rules engine stored, for the dashboard and anyone who reads the repository.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { PullParams } from '../../domain/identifiers.ts';
import { pullRulesReport } from '../../domain/rules/pull-rules-report.ts';
import { readStoredSummary } from '../../domain/rules/stored-rule-results.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponse, errorResponses, jsonResponse } from './schemas.ts';
import { PullRulesBody } from './pull-rules-body.ts';

export const pullRulesRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  app.get('/v1/repos/:owner/:repository/pulls/:number/rules', {
    ...guard(auth, 'repo_read'),
    schema: {
      operationId: 'get_pull_request_rules',
      tags: ['configuration'],
      summary: 'Read the rules of a pull request as its last evaluation found them',
      description: 'Each rule of the configuration file in force (of the products enabled), whether it matches, and its conditions as a tree with each node true, false or pending: what the `Switchyard / Summary` check run shows. Hosting-platform tokens need read access to the repository.',
      security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'),
      params: PullParams,
      response: {
        200: jsonResponse('The last evaluation.', PullRulesBody),
        ...errorResponses,
        404: errorResponse('The repository is not registered, or the rules engine has not evaluated the pull request (no configuration file governs the repository, or the pull request was not open since one came).', 'rules_not_evaluated'),
      },
    },
  }, async (request) => {
    const { owner, repository: name, number } = request.params;
    const repository = await store.repositories.find(owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    const state = await store.rulesEngine.state(repository.id, number);
    const summary = state ? readStoredSummary(state.summary) : null;
    if (!state || !summary) throw new ApiError('rules_not_evaluated');
    return pullRulesReport(number, { headSha: state.headSha, evaluatedAt: state.evaluatedAt, summary });
  });
};
