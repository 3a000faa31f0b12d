// The activity log's query language, shared by listing and aggregation: parameters, filter set,
// time window; and the listing's keyset pages, cursors, links and body.
export { ActivityLogFilterQuery, ActivityLogFilterQueryInput, ActivityLogListQuery, ActivityLogListQueryInput, pageSize } from './query-schema.ts';
export type { ActivityLogFilterParams, ActivityLogListParams } from './query-schema.ts';
export { BISECTION_TYPES, FILTER_PAIRS, type ActivityLogFilters, type PairKey, type ValueFilter } from './activity-log-filters.ts';
export { parseFilterQuery, type ActivityLogQuery } from './parse-filter-query.ts';
export { parseZonedDateTime } from './zoned-date-time.ts';
export { resolveWindow, type TimeWindow, type WindowBounds } from './time-window.ts';
export { filterFingerprint } from './filter-fingerprint.ts';
export { decodeCursor, encodeCursor, type KeysetPosition, type PageCursor, type PageDirection } from './page-cursor.ts';
export { slicePage, type Seek } from './keyset-page.ts';
export { filterParams, linkHeader, type QueryParam } from './page-links.ts';
export { pageJson, type StoredEvent } from './page-json.ts';
