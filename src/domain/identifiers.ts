// Path identifiers of spec §2.1, shared by every route.
import { Type } from '@sinclair/typebox';
import { Int64 } from './int64.ts';

export const Owner = Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-zA-Z0-9\\-]+$', description: 'Owner login', examples: ['acme'] });
// `.` and `..` match the characters but name no repository (the platform refuses them; in a
// URL they are path steps).
export const RepositoryName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\w\\-.]*[\\w\\-][\\w\\-.]*$', description: 'Repository name: letters, digits, `-`, `_` and `.`, not dots alone', examples: ['widgets'] });
export const Sha = Type.String({ pattern: '^[0-9a-fA-F]{40}$', description: 'Commit sha (either case)', examples: ['9fceb02d0ae598e95dc970b74767f19372d61af8'] });
export const PullNumber = Int64({ description: 'Pull request number', examples: [42] });

export const OwnerParams = Type.Object({ owner: Owner });
export const RepoParams = Type.Object({ owner: Owner, repository: RepositoryName });
export const PullParams = Type.Object({ owner: Owner, repository: RepositoryName, number: PullNumber });
export const CommitParams = Type.Object({ owner: Owner, repository: RepositoryName, sha: Sha });
