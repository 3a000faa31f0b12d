// Answers checked against the public API's own schemas (the reference document Switchyard is
// wire-compatible with, DESIGN.md §9), read where the project keeps its shared references
// (../shared/reference beside the repository). Not copied into the project: where the reference
// is absent (a bare checkout), `publicShapeProblem` says so and callers skip the check.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const MERGE_QUEUE_REFERENCE = new URL('../../../shared/reference/mergify-openapi-merge-queue-subset.json', import.meta.url);

export const publicReferenceAvailable = existsSync(MERGE_QUEUE_REFERENCE);

let ajv: Ajv2020 | undefined;

function referenceAjv(): Ajv2020 {
  if (!ajv) {
    const document = JSON.parse(readFileSync(MERGE_QUEUE_REFERENCE, 'utf8')) as { components: unknown };
    ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'public', components: document.components });
  }
  return ajv;
}

/** What is wrong with `value` as the public schema `name` describes it; undefined when it fits. */
export function publicShapeProblem(name: string, value: unknown): string | undefined {
  const validate = referenceAjv().getSchema(`public#/components/schemas/${name}`);
  if (!validate) throw new Error(`no public schema ${name}`);
  return validate(value) ? undefined : `${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value)}`;
}
