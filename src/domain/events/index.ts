// The event catalogue's public surface: types, schemas, outcome derivation and ingestion checks.
export { EVENT_TYPES, OUTCOMES, isEventType, type EventType, type Outcome } from './event-type.ts';
export { eventCatalogue, type CatalogueEntry } from './catalogue.ts';
export { metadataSchemas } from './metadata-schemas.ts';
export { deriveOutcome } from './derive-outcome.ts';
export type { OutcomeRule } from './outcome-rule.ts';
export {
  INGEST_MAX_EVENTS,
  IngestEvent,
  IngestRequest,
  RECEIVED_AT_MAX_LEAD_MS,
  type IngestEventInput,
  type ValidIngestEvent,
} from './ingest-event.ts';
export { validateIngestEvents, type IngestValidation } from './validate-ingest-events.ts';
export { hoistRecursiveSchemas } from './hoist-recursive-schemas.ts';
export { EVENT_TYPE_ALIASES, EVENT_TYPE_ALIAS_NAMES, QUEUE_CODE_ALIASES, canonicalEventType, withSpecSpellings } from './public-spellings.ts';
