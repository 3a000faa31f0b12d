// The most members an object closed to unknown fields may hold and still be answered field by
// field: used by the validator (its maxProperties) and by the body parser's bounds (json-bounds.ts).

/**
 * An object closed to unknown fields holds at most its declared ones when valid. Up to
 * UNKNOWN_FIELDS_NAMED more, each unknown field is named (a misspelt field is worth naming); past
 * that, the object is only said to have too many.
 */
const UNKNOWN_FIELDS_NAMED = 100;

export function closedObjectBound(node: Record<string, unknown>): number | undefined {
  if (node.additionalProperties !== false || node.patternProperties !== undefined || typeof node.properties !== 'object') return undefined;
  return Object.keys(node.properties as object).length + UNKNOWN_FIELDS_NAMED;
}
