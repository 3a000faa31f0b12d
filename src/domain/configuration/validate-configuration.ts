// A parsed document checked against the public vocabulary: every error with its location and
// line, every option Switchyard does not implement named, and (only when there is no error) the
// effective configuration. A file with errors yields none: the caller keeps the last good one.
import { INVALID, rootCursor, type CheckContext } from './check-cursor.ts';
import type { ConditionParser } from './condition-parser.ts';
import type { ConfigurationError } from './configuration-error.ts';
import { effectiveConfiguration } from './effective-defaults.ts';
import type { EffectiveConfiguration } from './effective-configuration.ts';
import { IMPLEMENTED_OPTIONS } from './implemented-options.ts';
import { parseConfigurationText } from './parse-configuration-text.ts';
import type { ParsedDocument } from './parsed-document.ts';
import { withPosition } from './source-positions.ts';
import { configurationDocument } from './vocabulary-document.ts';

export interface ConfigurationReport<C> {
  valid: boolean;
  errors: ConfigurationError[];
  /** Options written that Switchyard accepts without acting on them, as dotted paths
   * (`queue_rules[0].autosquash`); a public value it reads differently as `path=value`. */
  notSupported: string[];
  /** null whenever `valid` is false. */
  configuration: EffectiveConfiguration<C> | null;
}

/** How many errors one report lists; the last item counts the others. */
export const MAX_REPORTED_ERRORS = 100;

function capped(errors: ConfigurationError[]): ConfigurationError[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const rest = errors.length - MAX_REPORTED_ERRORS;
  return [...errors.slice(0, MAX_REPORTED_ERRORS), { loc: [], msg: `${rest} more error${rest === 1 ? '' : 's'} not shown` }];
}

/** The errors a report lists, located in their file (only those: locating costs a walk each). */
function located(document: ParsedDocument, errors: ConfigurationError[]): ConfigurationError[] {
  const shown = errors.slice(0, MAX_REPORTED_ERRORS).map((error) => withPosition(document.positions, document.value, error));
  return errors.length > MAX_REPORTED_ERRORS ? [...shown, ...errors.slice(MAX_REPORTED_ERRORS)] : shown;
}

function invalid<C>(errors: ConfigurationError[], notSupported: string[]): ConfigurationReport<C> {
  return { valid: false, errors: capped(errors), notSupported, configuration: null };
}

export function validateConfiguration<C>(document: ParsedDocument, parseCondition: ConditionParser<C>): ConfigurationReport<C> {
  const context: CheckContext = { errors: [], notSupported: [], implemented: IMPLEMENTED_OPTIONS, parseCondition };
  const checked = configurationDocument(document.value, rootCursor(context));
  if (checked === INVALID || context.errors.length > 0) return invalid(located(document, context.errors), context.notSupported);
  const always = parseCondition([], []);
  if (!always.ok) return invalid([{ loc: [], msg: 'the condition parser refuses an empty list of conditions' }], context.notSupported);
  return { valid: true, errors: [], notSupported: context.notSupported, configuration: effectiveConfiguration(checked, always.condition) };
}

/** Parse and validate one file on its own: a file with `extends` needs its parent merged first
 * (extendsTarget, mergeExtended), else its effective configuration lacks the parent's rules. */
export function readConfiguration<C>(text: string, path: string, parseCondition: ConditionParser<C>): ConfigurationReport<C> {
  const parsed = parseConfigurationText(text, path);
  return parsed.ok ? validateConfiguration(parsed.document, parseCondition) : invalid(parsed.errors, []);
}
