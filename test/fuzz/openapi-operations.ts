// The operations of the served OpenAPI document, in the shape the fuzzer works with: each
// parameter's schema by location, the JSON body schema, the credentials it accepts and the
// documented schema of each response status. Nothing here knows any particular endpoint.

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface DocumentedResponse {
  schema: JsonSchema | undefined;
  headers: string[];
}

export interface Operation {
  /** "PUT /v1/products/{owner}/{repository}" */
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  /** Security scheme names accepted; empty when the operation is not bearer-authenticated. */
  security: string[];
  responses: Map<number, DocumentedResponse>;
  deprecated: boolean;
}

export interface ServedDocument {
  document: JsonSchema;
  operations: Operation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function asRecord(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' ? (value as JsonSchema) : {};
}

function jsonSchemaOf(content: unknown): JsonSchema | undefined {
  const media = asRecord(content)['application/json'];
  return media === undefined ? undefined : (asRecord(media).schema as JsonSchema | undefined);
}

function toOperation(path: string, method: string, raw: JsonSchema): Operation {
  const responses = new Map<number, DocumentedResponse>();
  for (const [status, response] of Object.entries(asRecord(raw.responses))) {
    const r = asRecord(response);
    responses.set(Number(status), { schema: jsonSchemaOf(r.content), headers: Object.keys(asRecord(r.headers)).map((h) => h.toLowerCase()) });
  }
  const security = Array.isArray(raw.security) ? raw.security.flatMap((requirement) => Object.keys(asRecord(requirement))) : [];
  return {
    id: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
    parameters: (Array.isArray(raw.parameters) ? raw.parameters : []).map((p) => {
      const parameter = asRecord(p);
      return { name: String(parameter.name), in: parameter.in as Parameter['in'], required: parameter.required === true, schema: asRecord(parameter.schema) };
    }),
    body: jsonSchemaOf(asRecord(raw.requestBody).content),
    security,
    responses,
    deprecated: raw.deprecated === true,
  };
}

/** Reads /v1/openapi.json from a running server and lists its operations. */
export async function loadServedDocument(baseUrl: string): Promise<ServedDocument> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  const document = (await response.json()) as JsonSchema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    for (const method of METHODS) {
      const raw = asRecord(item)[method];
      if (raw !== undefined) operations.push(toOperation(path, method, asRecord(raw)));
    }
  }
  return { document, operations };
}

/** `$ref` targets of a document: `#Anchor` ($anchor anywhere) and `#/json/pointer` from the root. */
export function refResolver(document: JsonSchema): (ref: string) => JsonSchema {
  const anchors = new Map<string, JsonSchema>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as JsonSchema;
    if (typeof schema.$anchor === 'string') anchors.set(schema.$anchor, schema);
    Object.values(schema).forEach(visit);
  };
  visit(document);
  return (ref) => {
    if (ref.startsWith('#/')) {
      let node: unknown = document;
      for (const part of ref.slice(2).split('/')) node = asRecord(node)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
      if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
      return asRecord(node);
    }
    const anchor = anchors.get(ref.slice(1));
    if (!anchor) throw new Error(`unresolvable $ref ${ref}`);
    return anchor;
  };
}
