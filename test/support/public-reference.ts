// Validates answers against the named schemas of the public merge-queue API document, read where
// the project's shared material keeps it (`../shared/reference/`, beside the repository; never
// copied into it). Switchyard answers null for facts it may not know where that document
// requires a value (DESIGN.md §9 "never invented"); `KNOWN_NULLS` lists those fields, and only a
// null in one of them is forgiven. A pull request's page and priority rule are always known
// (issue 26): test/http/merge-queue-public-shapes.test.ts forgives nothing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const REFERENCE = process.env.SWITCHYARD_REFERENCE_DIR
  ? `${process.env.SWITCHYARD_REFERENCE_DIR}/mergify-openapi-merge-queue-subset.json`
  : fileURLToPath(new URL('../../../shared/reference/mergify-openapi-merge-queue-subset.json', import.meta.url));

/** Why reference checks are skipped, or false when the document is there. */
export const referenceMissing: string | false = existsSync(REFERENCE) ? false : `the public merge-queue document is not at ${REFERENCE} (set SWITCHYARD_REFERENCE_DIR)`;

/** Fields of a pull request the public document requires as strings or objects, and Switchyard may answer null. */
export const KNOWN_NULLS = ['title', 'author'];

let ajv: Ajv2020 | undefined;

function referenceAjv(): Ajv2020 {
  if (ajv) return ajv;
  const document = JSON.parse(readFileSync(REFERENCE, 'utf8')) as { components: unknown };
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'reference', components: document.components });
  return ajv;
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
}

/** The problems of `body` as the reference's schema `name` describes it, known nulls forgiven. */
export function referenceProblems(name: string, body: unknown): string[] {
  const validate = referenceAjv().getSchema(`reference#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the reference`);
  if (validate(body)) return [];
  const forgiven = (path: string) => KNOWN_NULLS.includes(path.split('/').pop() ?? '') && valueAt(body, path) === null;
  const problems = (validate.errors ?? []).filter((error) => !forgiven(error.instancePath));
  // anyOf/oneOf wrappers of a forgiven null report at the same path; an unforgiven one stays.
  return [...new Set(problems.map((error) => `${error.instancePath || '/'} ${error.message}`))];
}

/** Whether the reference is there (the controls' tests skip their shape checks without it). */
export const publicReferenceAvailable = referenceMissing === false;

/** What is wrong with `value` as the public schema `name` describes it (nothing forgiven); undefined when it fits. */
export function publicShapeProblem(name: string, value: unknown): string | undefined {
  const validate = referenceAjv().getSchema(`reference#/components/schemas/${name}`);
  if (!validate) throw new Error(`no public schema ${name}`);
  return validate(value) ? undefined : `${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value)}`;
}
