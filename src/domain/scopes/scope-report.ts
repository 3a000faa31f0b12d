// The body of a scope report (DESIGN.md §5) and its normal form. The schema is strict: an
// unknown field is a 422, so a misspelt `all_scopes` cannot silently drop a barrier.
import { Type, type Static } from '@sinclair/typebox';
import { StrictObject } from '../schema-primitives.ts';

export const MAX_SCOPES = 1000;
export const MAX_SCOPE_LENGTH = 255;

export const ScopeReportBody = StrictObject(
  {
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: MAX_SCOPE_LENGTH }), {
      maxItems: MAX_SCOPES,
      uniqueItems: true,
      description: `The scopes the revision impacts: unique, non-empty, at most ${MAX_SCOPE_LENGTH} characters each, at most ${MAX_SCOPES}. [] is valid.`,
    }),
    // No `default` keyword: openapi-typescript makes a property with a default required, and
    // a client may well leave it out.
    all_scopes: Type.Optional(
      Type.Boolean({
        description: 'True when the revision impacts every scope (a merge-queue barrier). Omitted means false: the report replaces the previous one in full.',
      }),
    ),
  },
  { title: 'ScopeReport' },
);

export type ScopeReportBody = Static<typeof ScopeReportBody>;

export interface ScopeReport {
  scopes: string[];
  allScopes: boolean;
}

/** The report a valid body stands for: an omitted `all_scopes` is false, never "unchanged". */
export function toScopeReport(body: ScopeReportBody): ScopeReport {
  return { scopes: body.scopes, allScopes: body.all_scopes ?? false };
}
