// How a route documents what it answers, next to its schema: each status is declared with the
// sentence a reader sees, its body schema and the headers it carries. The declarations are
// OpenAPI response objects, and also a form Fastify understands (a schema per content type),
// so the reply stays typed by the body schema.
import { Type, type TNull, type TSchema } from '@sinclair/typebox';

/** An OpenAPI header object: what one response header carries. */
export interface HeaderDoc {
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export type ResponseHeaders = Readonly<Record<string, HeaderDoc>>;

export function header(description: string, schema: TSchema = Type.String()): HeaderDoc {
  return { description, schema };
}

export interface JsonResponse<T extends TSchema> {
  readonly description: string;
  readonly headers?: ResponseHeaders;
  readonly content: { readonly 'application/json': { readonly schema: T; readonly example?: unknown } };
}

interface ResponseOptions {
  headers?: ResponseHeaders;
  /** An example body, written as the API writes it. */
  example?: unknown;
}

/** A JSON answer: `description` says when it is given and what it means. */
export function jsonResponse<T extends TSchema>(description: string, schema: T, options: ResponseOptions = {}): JsonResponse<T> {
  const media = options.example === undefined ? { schema } : { schema, example: options.example };
  return { description, ...(options.headers && { headers: options.headers }), content: { 'application/json': media } };
}

/** An answer without a body. A null schema, so the handler's `send(null)` type-checks. */
export type EmptyResponse = TNull & { readonly headers?: ResponseHeaders };

export function emptyResponse(description: string, options: { headers?: ResponseHeaders } = {}): EmptyResponse {
  return Object.assign(Type.Null({ description }), options.headers ? { headers: options.headers } : {});
}

declare module 'fastify' {
  /** What the OpenAPI document reads from a route's schema besides its inputs and responses. */
  interface FastifySchema {
    /** Unique; the id the public API uses for the operations Switchyard shares with it. */
    operationId?: string;
    summary?: string;
    /** Markdown. */
    description?: string;
    tags?: readonly string[];
    security?: readonly Readonly<Record<string, readonly string[]>>[];
    deprecated?: boolean;
    /** The explicit marker of a route that is not part of the API (health, docs pages, assets). */
    hide?: boolean;
  }
}
