// Response bodies of the scope read-backs (DESIGN.md §5).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../domain/int64.ts';
import { DateTime, Nullable, StringEnum } from '../../domain/schema-primitives.ts';

const Scopes = Type.Array(Type.String(), { examples: [['api', 'web']] });
const SHA_EXAMPLE = '9fceb02d0ae598e95dc970b74767f19372d61af8';

export const PullScopesBody = Type.Object(
  {
    pull_request: Int64({ description: 'Pull request number', examples: [42] }),
    head_sha: Nullable(Type.String({ examples: [SHA_EXAMPLE] }), { description: 'Current head commit, lower-case; null when no head is known' }),
    scopes: Scopes,
    all_scopes: Type.Boolean(),
    source: Nullable(StringEnum(['commit', 'pull_request'] as const), { description: 'Which report is effective; null when nothing was reported' }),
    reported_at: Nullable(DateTime(), { description: 'When the effective report arrived' }),
  },
  { title: 'PullRequestScopes' },
);

export const CommitScopesBody = Type.Object(
  {
    sha: Type.String({ description: 'Lower-case', examples: [SHA_EXAMPLE] }),
    scopes: Scopes,
    all_scopes: Type.Boolean(),
    reported_at: DateTime(),
  },
  { title: 'CommitScopes' },
);
