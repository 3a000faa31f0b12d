// The page body (spec §2.7) written as JSON text directly: metadata is spliced in as stored (the
// exact text a producer sent, big integers included) and ids and pull request numbers as their
// digits, so nothing is parsed and re-serialised and no 64-bit integer is rounded on the way.

/** An event as storage returns it: int8 as decimal text, json as its raw text. */
export interface StoredEvent {
  readonly id: string;
  readonly received_at: Date;
  readonly trigger: string;
  readonly pull_request: string | null;
  readonly base_ref: string | null;
  readonly outcome: string;
  readonly type: string;
  readonly metadata: string;
}

/** The envelope of spec §2.4; `repository` is the full name as registered. */
export function eventJson(event: StoredEvent, repositoryJson: string): string {
  return (
    `{"id":${event.id},"received_at":"${event.received_at.toISOString()}","trigger":${JSON.stringify(event.trigger)},` +
    `"repository":${repositoryJson},"pull_request":${event.pull_request ?? 'null'},"base_ref":${JSON.stringify(event.base_ref)},` +
    `"outcome":${JSON.stringify(event.outcome)},"type":${JSON.stringify(event.type)},"metadata":${event.metadata}}`
  );
}

export function pageJson(events: readonly StoredEvent[], perPage: number, repository: string): string {
  const repositoryJson = JSON.stringify(repository);
  return `{"size":${events.length},"per_page":${perPage},"events":[${events.map((event) => eventJson(event, repositoryJson)).join(',')}]}`;
}
