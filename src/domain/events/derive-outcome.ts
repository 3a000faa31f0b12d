// The envelope's `outcome` label (spec §2.4), derived from the type and, for seven types, from the
// metadata. Callers pass metadata that has passed the type's schema.
import { eventCatalogue } from './catalogue.ts';
import type { EventType, Outcome } from './event-type.ts';

export function deriveOutcome(type: EventType, metadata: unknown): Outcome {
  const rule = eventCatalogue[type].outcome;
  return rule.kind === 'fixed' ? rule.outcome : rule.derive(metadata);
}
