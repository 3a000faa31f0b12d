// What the queue asked of the hosting platform in a run, from the fake platform's request log:
// its writes, and those of them that create content (commits, pull requests, merges, comments),
// which GitHub limits hardest (about 80 a minute and 500 an hour per client), against the pull
// requests it merged. Ref moves and deletions, and closing a pull request, are writes that create
// nothing.
import type { LoggedRequest } from '../test/support/fake-platform/platform-server.ts';

export interface PlatformWrites {
  /** Every answered request of the queue's bot that was not a read. */
  all: number;
  /** Of those, the ones that create content. */
  content: number;
  /** Of those, by kind (`POST /merges`, `POST /git/refs`...): what a reader compares between versions. */
  byKind: Map<string, number>;
}

const CONTENT = [/^POST \/merges$/, /^POST \/pulls$/, /^PUT \/pulls\/\d+\/merge$/, /^PUT \/pulls\/\d+\/update-branch$/, /^POST \/issues\/\d+\/comments$/];

export function platformWrites(log: readonly LoggedRequest[], caller: string, repo: string): PlatformWrites {
  const byKind = new Map<string, number>();
  let all = 0;
  let content = 0;
  for (const request of log) {
    if (request.caller !== caller || request.method === 'GET' || request.method === 'HEAD' || request.status === 0) continue;
    const path = request.url.split('?')[0]!.replace(`/repos/${repo}`, '');
    const call = `${request.method} ${path}`;
    all += 1;
    if (CONTENT.some((pattern) => pattern.test(call))) content += 1;
    const kind = `${request.method} ${path.replace(/\/git\/refs\/.*/, '/git/refs/…').replace(/\d+/g, '{n}')}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  return { all, content, byKind };
}
