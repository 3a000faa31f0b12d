// Decides what a webhook asks from its event name (X-GitHub-Event) and payload alone.
import { validationError } from '../../errors.ts';
import type { HostingEvent } from './hosting-event.ts';
import { parsePullRequestEvent } from './pull-request-event.ts';
import { parseRegistrationEvent } from './registration-event.ts';
import { parseQueueSignal } from './queue-signal-events.ts';

/**
 * Parses the payload of the events Switchyard handles; other events and actions are ignored
 * without being read further. Throws a ValidationError (422) for a handled event with a bad
 * payload, and for any payload that is not a JSON object, as no webhook of the platform is.
 */
export function parseHostingEvent(event: string, payload: unknown): HostingEvent {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw validationError(['body'], 'must be a JSON object', 'type_error');
  if (event === 'pull_request') return parsePullRequestEvent(payload);
  if (event === 'issue_comment' || event === 'check_run' || event === 'check_suite' || event === 'status' || event === 'push') return parseQueueSignal(event, payload);
  return parseRegistrationEvent(event, payload);
}
