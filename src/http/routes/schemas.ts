// Answers shared by several routes: the error answers every authenticated endpoint may give,
// each with the sentence the API document shows for it (DESIGN.md §2).
import { errorResponse, RetryAfter, ValidationErrorBody } from '../openapi/error-bodies.ts';
import { emptyResponse, jsonResponse } from '../openapi/responses.ts';

export { ErrorBody, errorResponse, ValidationErrorBody } from '../openapi/error-bodies.ts';
export { emptyResponse, header, jsonResponse } from '../openapi/responses.ts';

/** A 204 whose meaning the route does not spell out; prefer `emptyResponse('what was done')`. */
export const NoContent = emptyResponse('Done; no content.');

/** The error answers every authenticated endpoint may give. */
export const errorResponses = {
  403: errorResponse(
    'No credential, an unknown or revoked one, a kind of credential this endpoint does not accept, or one whose rights do not cover the owner or repository.',
    'missing_credential',
  ),
  404: errorResponse('The repository is not registered (`Repository not found`), or what the path names is unknown.', 'repository_not_found'),
  422: jsonResponse('A path, query or body value is invalid; `detail` lists every one, by location.', ValidationErrorBody, {
    example: { detail: [{ loc: ['query', 'per_page'], msg: 'must be <= 100', type: 'maximum' }] },
  }),
  503: errorResponse('Storage or the hosting platform API is unreachable; retry after `Retry-After` seconds.', 'storage_unavailable', { headers: { 'Retry-After': RetryAfter } }),
} as const;
