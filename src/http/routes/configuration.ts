// The configuration file of a repository (DESIGN.md §13): its report, a refresh, and the two
// simulators the hosted service's command line calls (`mergify config simulate`).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { PullParams, RepoParams } from '../../domain/identifiers.ts';
import type { Automation } from '../../services/automation/automation.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponse, errorResponses, jsonResponse } from './schemas.ts';

const Location = Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Where in the file: keys and list indexes' });

const ConfigurationIssue = Type.Object(
  { loc: Location, msg: Type.String({ description: 'What is wrong, in one sentence' }), line: Type.Optional(Type.Integer({ description: 'Line in the file, from 1, when known' })) },
  { title: 'ConfigurationIssue', additionalProperties: false },
);

const ConfigurationReport = Type.Object(
  {
    source: Type.Union([Type.Object({ path: Type.String(), sha: Type.String({ description: 'Blob sha of the file read' }) }, { additionalProperties: false }), Type.Null()], { description: 'The file last read on the default branch; null when there is none' }),
    valid: Type.Boolean({ description: 'Whether the file last read is valid. When it is not, the last good file stays in force.' }),
    errors: Type.Array(ConfigurationIssue, { description: 'Why the file last read is not valid' }),
    not_supported: Type.Array(Type.String(), { description: 'Keys of the public configuration that the file uses and Switchyard does not implement: they do nothing here' }),
    in_force: Type.Union([Type.Object({ path: Type.String(), sha: Type.String() }, { additionalProperties: false }), Type.Null()], { description: 'The file whose rules apply now (the last good one); null when the merge-queue API is the source' }),
    configuration: Type.Object({}, { additionalProperties: true, description: 'The configuration in force, every default filled in' }),
  },
  { title: 'ConfigurationReport', additionalProperties: false },
);

const SimulatorPayload = Type.Object(
  { mergify_yml: Type.String({ maxLength: 1_048_576, description: 'A configuration file, as text' }) },
  { title: 'SimulatorPayload', additionalProperties: false },
);

const DeprecationInfo = Type.Object(
  { message: Type.String(), deadline: Type.String({ format: 'date' }), path_to_field: Type.Union([Type.Array(Type.String()), Type.Null()]) },
  { title: 'DeprecationInfo', additionalProperties: false },
);

const RepositorySimulation = Type.Object(
  { message: Type.String({ description: 'What the simulation found' }), deprecations: Type.Array(DeprecationInfo) },
  { title: 'RepositoryConfigurationSimulatorResponse', additionalProperties: false },
);

const PullSimulation = Type.Object(
  { title: Type.String({ description: 'The Summary check run\'s title under that configuration' }), summary: Type.String({ description: 'Its body (Markdown)' }), deprecations: Type.Array(DeprecationInfo) },
  { title: 'SimulatorResponse', additionalProperties: false },
);

const INVALID = jsonResponse('The body is invalid, or the configuration in it is: `detail` lists each problem by its location in the file (`["body", "mergify_yml", …keys]`).', Type.Object({ detail: Type.Array(Type.Object({ loc: Location, msg: Type.String(), type: Type.String() })) }));

export const configurationRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store; automation: Automation }> = async (app, { auth, store, automation }) => {
  const service = automation.configurations;
  const tags = ['configuration'];
  const credentials = security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth');
  const repositoryOf = async (owner: string, name: string) => {
    const repository = await store.repositories.find(owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    return repository;
  };

  app.get('/v1/repos/:owner/:repository/configuration', {
    ...guard(auth, 'repo_read'),
    schema: {
      operationId: 'get_repository_configuration',
      tags,
      summary: 'Read the configuration in force and the report of the file last read',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The report.', ConfigurationReport), ...errorResponses },
    },
  }, async (request) => service.report(await repositoryOf(request.params.owner, request.params.repository)));

  app.post('/v1/repos/:owner/:repository/configuration/refresh', {
    ...guard(auth, 'repo_write'),
    schema: {
      operationId: 'refresh_repository_configuration',
      tags,
      summary: 'Read the configuration file on the default branch again',
      description: 'Reads the file now through the hosting platform and answers the report. Every open pull request is evaluated again when the configuration in force changed.',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The report after the read.', ConfigurationReport), ...errorResponses },
    },
  }, async (request) => service.refresh(await repositoryOf(request.params.owner, request.params.repository)));

  app.post('/v1/repos/:owner/:repository/configuration-simulator', {
    ...guard(auth, 'repo_read'),
    schema: {
      operationId: 'repository_configuration_simulator_repos__owner___repository__configuration_simulator_post',
      tags,
      summary: 'Validate a configuration for a repository',
      security: credentials,
      params: RepoParams,
      body: SimulatorPayload,
      response: { 200: jsonResponse('The configuration is valid.', RepositorySimulation), ...errorResponses, 422: INVALID },
    },
  }, async (request) => service.validate(await repositoryOf(request.params.owner, request.params.repository), request.body.mergify_yml));

  app.post('/v1/repos/:owner/:repository/pulls/:number/simulator', {
    ...guard(auth, 'repo_read'),
    schema: {
      operationId: 'simulator_pull_repos__owner___repository__pulls__number__simulator_post',
      tags,
      summary: 'The Summary a pull request would get under a configuration',
      description: 'Reads the pull request from the hosting platform and evaluates the configuration given on it, as the Summary check run would show it; nothing is written.',
      security: credentials,
      params: PullParams,
      body: SimulatorPayload,
      response: {
        200: jsonResponse('The simulated Summary.', PullSimulation),
        ...errorResponses,
        404: errorResponse('The repository is not registered, or the hosting platform does not know the pull request.', 'pull_request_not_found'),
        422: INVALID,
      },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params.owner, request.params.repository);
    if (!automation.service) throw new ApiError('hosting_unavailable', 'Switchyard has no hosting-platform credentials (SWITCHYARD_HOSTING_TOKEN or a GitHub App) to read the pull request with.');
    return automation.service.simulate(repository, request.params.number, request.body.mergify_yml);
  });
};
