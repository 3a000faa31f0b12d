// The one catalogue of errors Switchyard answers with (DESIGN.md §2). Code anywhere throws
// `new ApiError(code)`; src/http/error-handler.ts is the one renderer. docs/errors.md lists the
// same codes, and a test keeps the two in line.
import { capIssues, type ValidationIssue } from './validation/issue-limit.ts';

export const errorCatalogue = {
  missing_credential: { status: 403, detail: 'Send a credential in the Authorization header as "Bearer <token>".' },
  invalid_credential: { status: 403, detail: 'The credential is unknown or has been revoked.' },
  hosting_identity_invalid: { status: 403, detail: "The hosting platform names this token's user with an identity it could not have issued; the token is refused as a credential." },
  scheme_not_accepted: { status: 403, detail: 'This endpoint does not accept this kind of credential.' },
  insufficient_rights: { status: 403, detail: 'The credential has no rights on this owner or repository.' },
  bad_signature: { status: 403, detail: 'The webhook signature is missing or does not match the shared secret.' },
  repository_not_found: { status: 404, detail: 'Repository not found' },
  pull_request_not_found: { status: 404, detail: 'Pull request not found' },
  scope_report_not_found: { status: 404, detail: 'No scope report is stored for this commit.' },
  key_not_found: { status: 404, detail: 'Application key not found' },
  route_not_found: { status: 404, detail: 'No such endpoint.' },
  queue_not_paused: { status: 404, detail: 'The merge queue of this repository is not paused.' },
  scheduled_freeze_not_found: { status: 404, detail: 'The scheduled freeze with the given id does not exist.' },
  rules_not_evaluated: { status: 404, detail: 'The rules engine has not evaluated this pull request.' },
  scheduled_freeze_started: { status: 400, detail: 'The scheduled freeze has already started: its start cannot be changed.' },
  malformed_request: { status: 400, detail: 'The request is not well-formed HTTP/1.1.' },
  request_timeout: { status: 408, detail: 'The request did not arrive in time.' },
  headers_too_large: { status: 431, detail: 'The request headers are larger than 16 KiB.' },
  pull_request_unknown: { status: 409, detail: 'Switchyard has no record of this pull request.' },
  pull_request_not_open: { status: 409, detail: 'The pull request is closed or merged.' },
  pull_request_draft: { status: 409, detail: 'The pull request is a draft.' },
  pull_request_already_queued: { status: 409, detail: 'The pull request is already in the merge queue.' },
  no_queue_rule: { status: 409, detail: 'No queue rule covers the base branch of the pull request.' },
  product_disabled: { status: 409, detail: 'The product is not enabled on this repository.' },
  configuration_in_repository: { status: 409, detail: 'A configuration file in the repository governs this; change the file instead.' },
  queue_rule_unknown: { status: 422, detail: 'There is no queue rule of that name.' },
  pull_request_not_queued: { status: 404, detail: 'The pull request is not in the merge queue.' },
  pull_request_merging: { status: 409, detail: 'The merge queue is merging the pull request; it can no longer be dequeued.' },
  pull_request_closed: { status: 409, detail: 'The pull request is closed or merged; scope reports by number are refused.' },
  payload_too_large: { status: 413, detail: 'The request body is larger than this endpoint accepts.' },
  unsupported_media_type: { status: 415, detail: 'Send the body as JSON with Content-Type: application/json.' },
  validation_failed: { status: 422, detail: 'The request is invalid.' },
  rate_limited: { status: 429, detail: 'Too many requests from this credential, or on this owner; retry after the seconds in Retry-After.' },
  owner_busy: { status: 429, detail: 'Too many expensive requests on this owner are waiting already; retry after the seconds in Retry-After.' },
  token_verifications_limited: { status: 429, detail: 'Too many unknown tokens were sent from this address; retry later.' },
  bodies_in_flight_limited: { status: 503, detail: 'The service is holding as many request bodies as it may (in all, or from this address); retry shortly.' },
  connections_limited: { status: 503, detail: 'The service has as many connections open as it may (in all, or from this address); close idle ones and retry shortly.' },
  storage_unavailable: { status: 503, detail: 'Storage is unreachable; retry shortly.' },
  storage_timeout: { status: 503, detail: 'The query ran longer than the storage time limit and was stopped; narrow the window or the filters, or retry later.' },
  hosting_unavailable: { status: 503, detail: 'The hosting platform API is unreachable; retry shortly.' },
  hosting_invalid_answer: { status: 503, detail: 'The hosting platform API answered with something invalid; retry shortly.' },
  internal_error: { status: 500, detail: 'Internal error; it has been logged.' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Seconds a client should wait after a 503. */
export const RETRY_AFTER_SECONDS = 5;

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    /** sent as Retry-After (a 503 without it gets RETRY_AFTER_SECONDS) */
    readonly retryAfterSeconds?: number,
  ) {
    const entry = errorCatalogue[code];
    super(detail ?? entry.detail);
    this.status = entry.status;
    this.detail = detail ?? entry.detail;
  }
}

/** A 422 whose detail lists the invalid values: the first 100, then how many more (validation/issue-limit.ts). */
export class ValidationError extends ApiError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('validation_failed');
    this.issues = capIssues(issues);
  }
}

export function validationError(loc: (string | number)[], msg: string, type: string): ValidationError {
  return new ValidationError([{ loc, msg, type }]);
}
