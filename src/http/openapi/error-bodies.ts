// The error bodies of DESIGN.md §2, as the document names them: `Error` for every error but
// validation, `ValidationError` for a 422.
import { Type } from '@sinclair/typebox';
import { errorCatalogue, RETRY_AFTER_SECONDS, type ErrorCode } from '../../errors.ts';
import { header, jsonResponse, type ResponseHeaders } from './responses.ts';

export const ErrorBody = Type.Object(
  { detail: Type.String({ description: 'One sentence a person can act on' }) },
  { title: 'Error' },
);

export const ValidationIssue = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Where: the part of the request, then the path to the value', examples: [['query', 'per_page']] }),
    msg: Type.String({ examples: ['must be <= 100'] }),
    type: Type.String({ description: 'The kind of problem, stable across releases', examples: ['maximum'] }),
  },
  { title: 'ValidationIssue' },
);

export const ValidationErrorBody = Type.Object(
  { detail: Type.Array(ValidationIssue, { description: 'Every invalid value of the request' }) },
  { title: 'ValidationError' },
);

/** An error answer, its example the catalogued sentence of `code` (src/errors.ts). */
export function errorResponse(description: string, code: ErrorCode, options: { headers?: ResponseHeaders } = {}) {
  return jsonResponse(description, ErrorBody, { ...options, example: { detail: errorCatalogue[code].detail } });
}

export const RetryAfter = header('Seconds to wait before trying again', Type.Integer({ minimum: 0, examples: [RETRY_AFTER_SECONDS] }));
