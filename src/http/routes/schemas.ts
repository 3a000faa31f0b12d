// Response schemas shared by several routes (documentation of the error bodies of DESIGN.md §2).
import { Type } from '@sinclair/typebox';

export const ErrorBody = Type.Object({ detail: Type.String() }, { title: 'Error' });
export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
      }),
    ),
  },
  { title: 'ValidationError' },
);
export const NoContent = Type.Null({ description: 'No content' });

/** The error responses every authenticated endpoint may give. */
export const errorResponses = {
  403: ErrorBody,
  404: ErrorBody,
  422: ValidationErrorBody,
  503: ErrorBody,
} as const;
