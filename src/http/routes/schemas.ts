// Answers shared by several routes: the error answers every authenticated endpoint may give,
// each with the sentence the API document shows for it (DESIGN.md §2).
import { ErrorBody, RetryAfter, ValidationErrorBody } from '../openapi/error-bodies.ts';
import { emptyResponse, jsonResponse } from '../openapi/responses.ts';

export { ErrorBody, ValidationErrorBody } from '../openapi/error-bodies.ts';
export { emptyResponse, header, jsonResponse } from '../openapi/responses.ts';

/** A 204 whose meaning the route does not spell out; prefer `emptyResponse('what was done')`. */
export const NoContent = emptyResponse('Done; no content.');

/** The error answers every authenticated endpoint may give. */
export const errorResponses = {
  403: jsonResponse(
    'No credential, an unknown or revoked one, a kind of credential this endpoint does not accept, or one whose rights do not cover the owner or repository.',
    ErrorBody,
  ),
  404: jsonResponse('The repository is not registered (`Repository not found`), or what the path names is unknown.', ErrorBody),
  422: jsonResponse('A path, query or body value is invalid; `detail` lists every one, by location.', ValidationErrorBody),
  503: jsonResponse('Storage or the hosting platform API is unreachable; retry after `Retry-After` seconds.', ErrorBody, { headers: { 'Retry-After': RetryAfter } }),
} as const;
