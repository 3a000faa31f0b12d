// One route as an OpenAPI operation: its parameters from the params, querystring and headers
// schemas, its JSON body, and its responses as declared (src/http/openapi/responses.ts) plus the
// transport answers every such route gives.
import { STATUS_CODES } from 'node:http';
import type { FastifySchema } from 'fastify';
import type { RegisteredRoute } from './route-registry.ts';
import { transportHeaders, transportResponses } from './transport-responses.ts';

type Json = Record<string, unknown>;

const LOCATIONS = [
  ['params', 'path'],
  ['querystring', 'query'],
  ['headers', 'header'],
] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parameter(name: string, location: string, schema: Json, required: boolean): Json {
  const description = typeof schema.description === 'string' ? { description: schema.description } : {};
  // Repeated names (`?event_type=a&event_type=b`): said explicitly, as generated clients read it.
  const style = location === 'query' && schema.type === 'array' ? { style: 'form', explode: true } : {};
  return { name, in: location, required: location === 'path' || required, ...description, ...style, schema };
}

function parametersOf(schema: FastifySchema): Json[] {
  return LOCATIONS.flatMap(([part, location]) => {
    const object = schema[part];
    if (!isObject(object) || !isObject(object.properties)) return [];
    const required = new Set(Array.isArray(object.required) ? object.required : []);
    return Object.entries(object.properties).map(([name, property]) => parameter(name, location, property as Json, required.has(name)));
  });
}

/** A declared response (content form, or a null schema for no body), or a bare body schema. */
function responseObject(status: string, declared: Json): Json {
  const description = typeof declared.description === 'string' ? declared.description : (STATUS_CODES[Number(status)] ?? status);
  const headers = isObject(declared.headers) ? { headers: declared.headers } : {};
  if (isObject(declared.content)) return { description, ...headers, content: declared.content };
  if (declared.type === 'null') return { description, ...headers };
  return { description: STATUS_CODES[Number(status)] ?? status, content: { 'application/json': { schema: declared } } };
}

function responsesOf(route: RegisteredRoute, serverBodyLimit: number): Json {
  const declared = isObject(route.schema?.response) ? route.schema.response : {};
  const all: Json = { ...transportResponses(route, serverBodyLimit), ...declared };
  const everyAnswer = transportHeaders(route);
  const responses: Json = {};
  for (const status of Object.keys(all)) {
    const response = responseObject(status, all[status] as Json);
    const headers = { ...everyAnswer, ...(response.headers as Json | undefined) };
    responses[status] = Object.keys(headers).length > 0 ? { ...response, headers } : response;
  }
  return responses;
}

export function operationObject(route: RegisteredRoute, serverBodyLimit: number): Json {
  const schema = route.schema ?? {};
  const parameters = parametersOf(schema);
  const described = (['operationId', 'summary', 'description', 'tags', 'security', 'deprecated'] as const).filter((key) => schema[key] !== undefined);
  return {
    ...Object.fromEntries(described.map((key) => [key, schema[key]])),
    ...(parameters.length > 0 && { parameters }),
    ...(schema.body !== undefined && { requestBody: { required: !acceptsNull(schema.body), content: { 'application/json': { schema: schema.body } } } }),
    responses: responsesOf(route, serverBodyLimit),
  };
}

/** A body schema that allows null: the body may be left out (an empty body reads as none). */
function acceptsNull(body: unknown): boolean {
  const schema = body as { type?: unknown; anyOf?: { type?: unknown }[] };
  const nullType = (type: unknown) => type === 'null' || (Array.isArray(type) && type.includes('null'));
  return nullType(schema.type) || (schema.anyOf ?? []).some((part) => nullType(part.type));
}
