// Webhook payloads are the hosting platform's: lenient about fields Switchyard does not read,
// strict about those it does. A defect is a 422 naming the field, never a 500.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ValidationError } from '../../errors.ts';
import { compileBodyValidator, toValidationIssues } from '../../validation/validators.ts';

/** A checker that returns the payload as its static type (int64 fields made bigint) or throws a 422. */
export function payloadCheck<S extends TSchema>(schema: S): (payload: unknown) => Static<S> {
  const validate = compileBodyValidator(schema);
  return (payload) => {
    if (!validate(payload)) throw new ValidationError(toValidationIssues(validate.errors ?? [], ['body']));
    return payload as Static<S>;
  };
}

const withAction = payloadCheck(Type.Object({ action: Type.String() }));

/** The `action` of a payload, read first so that actions Switchyard ignores are not checked further. */
export function actionOf(payload: unknown): string {
  return withAction(payload).action;
}
