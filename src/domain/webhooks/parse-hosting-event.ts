// Decides what a webhook asks from its event name (X-GitHub-Event) and payload alone.
import type { HostingEvent } from './hosting-event.ts';
import { parsePullRequestEvent } from './pull-request-event.ts';
import { parseRegistrationEvent } from './registration-event.ts';

/**
 * Parses the payload of the events Switchyard handles; other events and actions are ignored
 * without being read. Throws a ValidationError (422) for a handled event with a bad payload.
 */
export function parseHostingEvent(event: string, payload: unknown): HostingEvent {
  if (event === 'pull_request') return parsePullRequestEvent(payload);
  return parseRegistrationEvent(event, payload);
}
