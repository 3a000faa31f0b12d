// How an event's outcome label is derived (DESIGN.md §7): fixed per type, or refined from the
// event's metadata. The outcome is computed at write time and never accepted from a producer.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Outcome } from './event-type.ts';

export type OutcomeRule =
  | { readonly kind: 'fixed'; readonly outcome: Outcome }
  | {
      readonly kind: 'refined';
      /** One line for people (docs/events.md), kept next to the code it describes. */
      readonly description: string;
      readonly derive: (metadata: unknown) => Outcome;
    };

export function fixed(outcome: Outcome): OutcomeRule {
  return { kind: 'fixed', outcome };
}

/** A rule reading metadata already validated against `schema`, hence typed by it. */
export function refined<S extends TSchema>(_schema: S, description: string, derive: (metadata: Static<S>) => Outcome): OutcomeRule {
  return { kind: 'refined', description, derive: derive as (metadata: unknown) => Outcome };
}
