// The error bodies of DESIGN.md §2, as the document names them: `Error` for every error but
// validation, `ValidationError` for a 422.
import { Type } from '@sinclair/typebox';
import { RETRY_AFTER_SECONDS } from '../../errors.ts';
import { header } from './responses.ts';

export const ErrorBody = Type.Object(
  { detail: Type.String({ description: 'One sentence a person can act on', examples: ['Repository not found'] }) },
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

export const RetryAfter = header('Seconds to wait before trying again', Type.Integer({ minimum: 0, examples: [RETRY_AFTER_SECONDS] }));
