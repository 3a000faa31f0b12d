// What the configuration's check runs say (DESIGN.md §13): on the default branch, whether the
// file there is valid; on a pull request that changes it, whether its version is and what it
// changes. Errors are listed with their place in the file; everything quoted from the file is
// escaped, since anyone with push access writes it.
import { codeSpan, escapeText as escapeMarkdown } from '../../domain/rules/render-condition-checklist.ts';
import type { CheckReport } from './check-runs.ts';

interface ReportedError {
  loc: (string | number)[];
  msg: string;
  line?: number;
}

const MAX_LISTED = 100;

export function configurationCheckReport(name: string, errors: readonly ReportedError[] | null, notSupported: readonly string[]): CheckReport {
  const unsupported = notSupported.length ? `\n\n#### Not supported by Switchyard\n\nThese keys of the public configuration do nothing here:\n\n${notSupported.slice(0, MAX_LISTED).map((key) => `- ${codeSpan(key)}`).join('\n')}` : '';
  if (errors === null) return { name, conclusion: 'success', title: 'The configuration is valid', summary: `The configuration is valid.${unsupported}` };
  const listed = errors.slice(0, MAX_LISTED).map((error) => `- ${locationOf(error)}: ${escapeMarkdown(error.msg)}`);
  const more = errors.length > MAX_LISTED ? `\n- … and ${errors.length - MAX_LISTED} more` : '';
  return {
    name,
    conclusion: 'failure',
    title: errors.length === 1 ? 'The configuration is invalid: 1 error' : `The configuration is invalid: ${errors.length} errors`,
    summary: `The last valid configuration stays in force until this is fixed.\n\n${listed.join('\n')}${more}${unsupported}`,
  };
}

function locationOf(error: ReportedError): string {
  const path = error.loc.length ? codeSpan(error.loc.map(String).join('.')) : 'the file';
  return error.line ? `${path} (line ${error.line})` : path;
}
