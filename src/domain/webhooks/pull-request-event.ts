// `pull_request` webhooks: the state, head and base a pull request has after the action.
import { Type } from '@sinclair/typebox';
import { validationError } from '../../errors.ts';
import { Owner, RepositoryName, Sha } from '../identifiers.ts';
import { Int64 } from '../int64.ts';
import { parseDateTime } from '../date-time.ts';
import { DateTime, Nullable, StringEnum } from '../schema-primitives.ts';
import { IGNORED, type HostingEvent, type PullRequestChange } from './hosting-event.ts';
import { actionOf, payloadCheck } from './payload-validation.ts';

export const PULL_REQUEST_ACTIONS = ['opened', 'reopened', 'synchronize', 'edited', 'closed', 'converted_to_draft', 'ready_for_review', 'labeled', 'unlabeled'] as const;

const Ref = Type.String({ minLength: 1, maxLength: 255 });

const checkPayload = payloadCheck(
  Type.Object({
    number: Type.Optional(Int64()),
    pull_request: Type.Object({
      number: Type.Optional(Int64()),
      state: StringEnum(['open', 'closed'] as const),
      merged: Type.Optional(Nullable(Type.Boolean())),
      head: Type.Object({ sha: Sha }),
      base: Type.Object({ ref: Ref }),
      updated_at: Type.Optional(DateTime()),
      draft: Type.Optional(Type.Boolean()),
      title: Type.Optional(Type.String({ maxLength: 1024 })),
      user: Type.Optional(Type.Object({ login: Type.String({ minLength: 1, maxLength: 255 }), id: Int64() })),
      labels: Type.Optional(Type.Array(Type.Object({ name: Type.String({ maxLength: 255 }) }), { maxItems: 1000 })),
      html_url: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
    }),
    repository: Type.Object({ name: RepositoryName, owner: Type.Object({ login: Owner }) }),
  }),
);

function isHandled(action: string): boolean {
  return (PULL_REQUEST_ACTIONS as readonly string[]).includes(action);
}

export function parsePullRequestEvent(payload: unknown): HostingEvent {
  if (!isHandled(actionOf(payload))) return IGNORED;
  const { number, pull_request: pull, repository } = checkPayload(payload);
  return {
    kind: 'pull_request',
    repository: { owner: repository.owner.login, name: repository.name },
    number: numberOf(number, pull.number),
    state: stateOf(pull.state, pull.merged),
    headSha: pull.head.sha.toLowerCase(),
    baseRef: pull.base.ref,
    updatedAt: pull.updated_at === undefined ? undefined : parseDateTime(pull.updated_at),
    ...(pull.title !== undefined && pull.user !== undefined
      ? { details: { draft: pull.draft === true, title: pull.title, author: { login: pull.user.login, id: pull.user.id }, labels: (pull.labels ?? []).map((label) => label.name), ...pageOf(pull.html_url) } }
      : {}),
  };
}

/** The pull request's page, shown to people as a link: only an http(s) address is kept (anything else is left out, not refused). */
function pageOf(url: string | null | undefined): { url?: string } {
  return url && /^https?:\/\/[^\s]+$/i.test(url) ? { url } : {};
}

/** The number is given twice by the platform; either will do, but two different ones are refused. */
function numberOf(outer: bigint | undefined, inner: bigint | undefined): bigint {
  const number = inner ?? outer;
  if (number === undefined) throw validationError(['body', 'pull_request', 'number'], 'Field required', 'missing');
  if (outer !== undefined && outer !== number) throw validationError(['body', 'number'], 'must equal pull_request.number', 'number_mismatch');
  return number;
}

function stateOf(state: 'open' | 'closed', merged: boolean | null | undefined): PullRequestChange['state'] {
  if (state === 'open') return 'open';
  return merged === true ? 'merged' : 'closed';
}
