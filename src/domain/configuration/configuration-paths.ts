// Where the service looks for a repository's configuration file on its default branch, in this
// order; the first that exists governs (DESIGN.md §13). Switchyard's own names come first, then
// the public ones, so a repository moving from the hosted service keeps its file as it is.
export const CONFIGURATION_PATHS = [
  '.switchyard.yml',
  '.switchyard/config.yml',
  '.mergify.yml',
  '.mergify/config.yml',
  '.github/mergify.yml',
] as const;

export type ConfigurationPath = (typeof CONFIGURATION_PATHS)[number];
