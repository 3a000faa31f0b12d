// What a platform operation answers: a value, or the status and message GitHub gives for the
// same refusal, so the REST routes and the programmatic API share one implementation.
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; message: string; errors?: unknown[] };

export function ok<T>(value: T): Answer<T> {
  return { ok: true, value };
}

export function refuse(status: number, message: string, errors?: unknown[]): { ok: false; status: number; message: string; errors?: unknown[] } {
  return errors ? { ok: false, status, message, errors } : { ok: false, status, message };
}

/** The value of an answer the caller expects to succeed (programmatic use from tests). */
export function valueOf<T>(answer: Answer<T>): T {
  if (!answer.ok) throw new Error(`the fake platform refused: ${answer.status} ${answer.message}`);
  return answer.value;
}
