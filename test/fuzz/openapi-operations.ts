// The operations of the served OpenAPI document, in the shape the fuzzer works with: each
// parameter's schema by location, the JSON body schema, the credentials it accepts and the
// documented schema of each response status. Nothing here knows any particular endpoint.

import { useDocument } from './response-check.ts';

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
  /** The path on the server: the document's path under its server's (`/v1`). */
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  /** The document requires a body (an operation whose body may be left out says `required: false`). */
  bodyRequired: boolean;
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
    bodyRequired: asRecord(raw.requestBody).required === true,
    security,
    responses,
    deprecated: raw.deprecated === true,
  };
}

/** The path prefix of a server list (`[{url: "/v1"}]` → `/v1`), resolved as clients do, against the document's URL. */
export function serverPrefix(servers: unknown, documentUrl: string): string {
  const url = Array.isArray(servers) && servers.length > 0 ? String(asRecord(servers[0]).url) : '/';
  return new URL(url, documentUrl).pathname.replace(/\/$/, '');
}

/** Reads /v1/openapi.json from a running server and lists its operations. */
export async function loadServedDocument(baseUrl: string): Promise<ServedDocument> {
  const documentUrl = `${baseUrl}/v1/openapi.json`;
  const response = await fetch(documentUrl);
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  const document = (await response.json()) as JsonSchema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    const prefix = serverPrefix(asRecord(item).servers ?? document.servers, documentUrl);
    for (const method of METHODS) {
      const raw = asRecord(item)[method];
      if (raw !== undefined) operations.push(toOperation(prefix + path, method, asRecord(raw)));
    }
  }
  useDocument(document);
  return { document, operations };
}

/** `$ref` targets of a document: JSON pointers from its root (`#/components/schemas/Name`), the only kind it uses. */
export function refResolver(document: JsonSchema): (ref: string) => JsonSchema {
  return (ref) => {
    if (!ref.startsWith('#/')) throw new Error(`not a local JSON pointer: $ref ${ref}`);
    let node: unknown = document;
    for (const part of ref.slice(2).split('/')) node = asRecord(node)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return asRecord(node);
  };
}
