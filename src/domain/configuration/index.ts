// The configuration file (DESIGN.md §13): parse its text, merge an `extends` parent under it,
// check it against the public vocabulary, and derive the effective configuration and the merge
// queue's. Pure: the caller fetches files and stores results.
export { CONFIGURATION_PATHS, type ConfigurationPath } from './configuration-paths.ts';
export { dottedPath, type ConfigurationError, type ConfigurationLoc } from './configuration-error.ts';
export type { ConditionParser } from './condition-parser.ts';
export { parseConfigurationText, MAX_CONFIGURATION_BYTES, MAX_ALIAS_COUNT, MAX_NESTING, MAX_TOKENS } from './parse-configuration-text.ts';
export type { ParsedDocument, ParseResult } from './parsed-document.ts';
export type { PositionIndex, SourcePosition } from './source-positions.ts';
export { extendsTarget, type ExtendsTarget, type RepositoryName } from './extends-target.ts';
export { mergeExtended } from './merge-extended.ts';
export { validateConfiguration, readConfiguration, MAX_REPORTED_ERRORS, type ConfigurationReport } from './validate-configuration.ts';
export type * from './effective-configuration.ts';
export { ACTION_NAMES, type ActionName, type ActionOptions } from './vocabulary-actions.ts';
export { COMMAND_NAMES, type CommandName } from './vocabulary-rules.ts';
export { IMPLEMENTED_OPTIONS } from './implemented-options.ts';
export { parseDuration, describeSeconds } from './durations.ts';
export { toMergeQueueConfiguration, type MergeQueueConfigFromFile, type MergeQueueRuleConditions } from './merge-queue-configuration.ts';
