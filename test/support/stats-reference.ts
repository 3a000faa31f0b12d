// Checks the statistics reads' answers against the public document that defines them
// (`../shared/reference/mergify-openapi-ci-insights-stats-subset.json`, beside the repository;
// never copied into it): the 200 schema of each `/repos/{owner}/{repository}/stats/*` path,
// nothing forgiven.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const REFERENCE = process.env.SWITCHYARD_REFERENCE_DIR
  ? `${process.env.SWITCHYARD_REFERENCE_DIR}/mergify-openapi-ci-insights-stats-subset.json`
  : fileURLToPath(new URL('../../../shared/reference/mergify-openapi-ci-insights-stats-subset.json', import.meta.url));

/** Why the shape checks are skipped, or false when the document is there. */
export const statsReferenceMissing: string | false = existsSync(REFERENCE) ? false : `the public statistics document is not at ${REFERENCE} (set SWITCHYARD_REFERENCE_DIR)`;

interface Document {
  paths: Record<string, { get?: { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>;
  components: unknown;
}

let loaded: { document: Document; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function reference() {
  if (loaded) return loaded;
  const document = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Document;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'reference', components: document.components });
  loaded = { document, ajv, validators: new Map() };
  return loaded;
}

const pathOf = (stat: string) => `/repos/{owner}/{repository}/stats/${stat}`;

/** The statistics paths the public document lists, by their last segment. */
export function publicStatsPaths(): string[] {
  return Object.keys(reference().document.paths).filter((path) => path.startsWith(pathOf(''))).map((path) => path.slice(pathOf('').length));
}

/** The public operation id of a statistics read. */
export function publicStatsOperationId(stat: string): string | undefined {
  return reference().document.paths[pathOf(stat)]?.get?.operationId;
}

/** What is wrong with `body` as the public document's 200 answer of `stat`; undefined when it fits. */
export function statsAnswerProblem(stat: string, body: unknown): string | undefined {
  const { document, ajv, validators } = reference();
  let validate = validators.get(stat);
  if (!validate) {
    const schema = document.paths[pathOf(stat)]?.get?.responses['200']?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`no 200 answer of ${stat} in the public document`);
    // References point into the components registered under the id `reference`.
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"reference#/components/')));
    validators.set(stat, validate);
  }
  return validate(body) ? undefined : `${stat}: ${ajv.errorsText(validate.errors)}`;
}
