// Reads a scopes file (YAML, or JSON, which YAML 1.2 reads too, with the `yaml` package) and
// checks it against the scopes vocabulary; every problem is named with where it is.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ScopesFileSchema } from '../domain/scopes/scopes-file.ts';
import type { FileScopeRules } from '../domain/scopes/file-scopes.ts';
import { compileBodyValidator, toValidationIssues } from '../validation/validators.ts';
import { usageError } from './cli-error.ts';

/** Where a configuration in this vocabulary usually lives, looked for in order at the repository's root. */
export const DEFAULT_SCOPES_FILES = ['.mergify.yml', '.mergify/config.yml', '.github/mergify.yml'];

const validate = compileBodyValidator(ScopesFileSchema);

async function readFirst(root: string, given: string | undefined): Promise<{ path: string; text: string }> {
  const candidates = given ? [given] : DEFAULT_SCOPES_FILES.map((name) => join(root, name));
  for (const path of candidates) {
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch (error) {
      if (given) throw usageError(`cannot read the scopes file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  throw usageError(`no scopes file: give --scopes-file, or add one of ${DEFAULT_SCOPES_FILES.join(', ')} with a scopes.source.files section`);
}

export async function readScopesFile(root: string, given: string | undefined): Promise<FileScopeRules> {
  const { path, text } = await readFirst(root, given);
  let document: unknown;
  try {
    document = parse(text, { uniqueKeys: true });
  } catch (error) {
    throw usageError(`${path} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!validate(document)) {
    const issues = toValidationIssues(validate.errors ?? [], []).map((issue) => `  ${issue.loc.join('.') || '(top)'}: ${issue.msg}`);
    throw usageError(`${path} is not a scopes file:\n${issues.join('\n')}`);
  }
  const { scopes } = document as { scopes: { source: unknown; barrier_files?: FileScopeRules['barrierFiles'] } };
  if (scopes.source === null || typeof scopes.source !== 'object' || !('files' in scopes.source)) {
    throw usageError(`${path}: scopes.source is not "files", so there is nothing to compute; send scopes as given (scopes send --scopes)`);
  }
  return { files: (scopes.source as { files: FileScopeRules['files'] }).files, barrierFiles: scopes.barrier_files };
}
