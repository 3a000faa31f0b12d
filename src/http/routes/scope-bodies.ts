// Response bodies of the scope read-backs (DESIGN.md §5).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../domain/int64.ts';
import { DateTime, Nullable, StringEnum } from '../../domain/schema-primitives.ts';

const Scopes = Type.Array(Type.String());

export const PullScopesBody = Type.Object(
  {
    pull_request: Int64({ description: 'Pull request number' }),
    head_sha: Nullable(Type.String(), { description: 'Current head commit, lower-case; null when no head is known' }),
    scopes: Scopes,
    all_scopes: Type.Boolean(),
    source: Nullable(StringEnum(['commit', 'pull_request'] as const), { description: 'Which report is effective; null when nothing was reported' }),
    reported_at: Nullable(DateTime(), { description: 'When the effective report arrived' }),
  },
  { title: 'PullRequestScopes' },
);

export const CommitScopesBody = Type.Object(
  {
    sha: Type.String({ description: 'Lower-case' }),
    scopes: Scopes,
    all_scopes: Type.Boolean(),
    reported_at: DateTime(),
  },
  { title: 'CommitScopes' },
);
