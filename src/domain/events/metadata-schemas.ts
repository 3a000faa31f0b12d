// The metadata schema of each type, for validation and for the OpenAPI document.
import type { TSchema } from '@sinclair/typebox';
import { eventCatalogue } from './catalogue.ts';
import { EVENT_TYPES, type EventType } from './event-type.ts';

export const metadataSchemas: Readonly<Record<EventType, TSchema>> = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, eventCatalogue[type].metadata]),
) as Record<EventType, TSchema>;
