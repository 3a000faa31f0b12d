// What a hosting-platform webhook asks of Switchyard: record a pull request's state, register
// repositories, or nothing.

export interface RepositoryName {
  owner: string;
  name: string;
}

export interface PullRequestChange {
  kind: 'pull_request';
  repository: RepositoryName;
  number: bigint;
  state: 'open' | 'closed' | 'merged';
  headSha: string;
  baseRef: string;
  /** pull_request.updated_at, when the payload has it: orders deliveries that arrive out of order. */
  updatedAt: Date | undefined;
}

export interface RepositoryRegistration {
  kind: 'register';
  repositories: RepositoryName[];
}

export type HostingEvent = PullRequestChange | RepositoryRegistration | { kind: 'ignored' };

export const IGNORED: HostingEvent = { kind: 'ignored' };
