// Run once on every new session of either backend: timestamps are printed in ISO form and in UTC,
// which is what timestamp-text.ts reads. One statement, so it works with either wire protocol.
export const SESSION_SETTINGS_SQL =
  "select set_config('TimeZone', 'UTC', false), set_config('DateStyle', 'ISO, MDY', false)";
