// How old a delivery may be (issue 20, item 8), when an operator bounds it. A signed payload can
// be captured and sent again later under a new delivery id. While the bodies applied are
// remembered (a week, or this age and an hour if longer), a replay is recognised by its digest;
// past that, pull request state is ordered by the platform's own times and a command comment is
// recognised by its id, so a late replay changes nothing. With a bound set, a payload whose own time (pull_request.updated_at,
// comment.created_at) lies further back is also refused outright. Payloads without such a time
// are judged by their digest alone.
import { validationError } from '../../errors.ts';
import type { HostingEvent } from './hosting-event.ts';

/** The payload's own time and where it is, for the events that carry one. */
function platformTime(event: HostingEvent): { at: Date; loc: string[] } | undefined {
  if (event.kind === 'pull_request' && event.updatedAt) return { at: event.updatedAt, loc: ['body', 'pull_request', 'updated_at'] };
  if (event.kind === 'comment' && event.createdAt) return { at: event.createdAt, loc: ['body', 'comment', 'created_at'] };
  return undefined;
}

/** Throws a 422 (`webhook_too_old`) when `event` is older than `maxAgeSeconds` (0: no bound) at `now`. */
export function refuseTooOld(event: HostingEvent, now: Date, maxAgeSeconds: number): void {
  if (maxAgeSeconds === 0) return;
  const time = platformTime(event);
  if (time && now.getTime() - time.at.getTime() > maxAgeSeconds * 1000) {
    throw validationError(time.loc, `is more than ${maxAgeSeconds} seconds old: a delivery this old is refused as a possible replay (SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS)`, 'webhook_too_old');
  }
}
