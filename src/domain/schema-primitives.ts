// The building blocks of every event schema. Strictness (unknown keys refused) and the wire
// formats (RFC 3339 with a timezone, uuid) are decided here once, not field by field.
import { Type, type ObjectOptions, type SchemaOptions, type TObject, type TProperties, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

type Described = { description?: string; examples?: unknown[] };

/** An object that refuses unknown keys: a misspelt optional field is a 422, never dropped. */
export function StrictObject<T extends TProperties>(properties: T, options: ObjectOptions & { title: string }): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** A string enum as one `enum` keyword, so a bad value yields one error listing the choices. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Described & { title?: string } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** RFC 3339 date-time; the timezone is required. */
export function DateTime(options: Described = {}): TString {
  return Type.String({ format: 'date-time', ...options });
}

export function Uuid(options: Described = {}): TString {
  return Type.String({ format: 'uuid', ...options });
}
