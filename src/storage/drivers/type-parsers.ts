// The one table that turns PostgreSQL's text output into JS values, used by both backends (pg via
// its `types` option, PGlite by decoding the raw text its worker returns), so they agree exactly.
import type { CustomTypesConfig } from 'pg';
import { parseArrayLiteral, type ElementParser } from './array-literal.ts';
import { parseTimestampText } from './timestamp-text.ts';

const asNumber: ElementParser = (text) => Number(text);
const asText: ElementParser = (text) => text;

/**
 * Types not listed stay as their text, deliberately including:
 * int8 and numeric (a JS number would round 64-bit ids), json and jsonb (parsed by callers with
 * exact big integers), date ('YYYY-MM-DD', no time zone to shift it), interval, uuid and text types.
 */
const SCALAR_PARSERS: ReadonlyMap<number, ElementParser> = new Map([
  [16, (text: string) => text === 't'], // bool
  [17, (text: string) => Buffer.from(text.slice(2), 'hex')], // bytea, '\x...' hex output
  [21, asNumber], // int2
  [23, asNumber], // int4
  [26, asNumber], // oid
  [700, asNumber], // float4
  [701, asNumber], // float8
  [1114, parseTimestampText], // timestamp
  [1184, parseTimestampText], // timestamptz
]);

/** Array type OID → element type OID, for the element types a schema of ours may use. */
const ARRAY_ELEMENTS: ReadonlyMap<number, number> = new Map([
  [1000, 16], // bool[]
  [1001, 17], // bytea[]
  [1005, 21], // int2[]
  [1007, 23], // int4[]
  [1016, 20], // int8[]
  [1028, 26], // oid[]
  [1021, 700], // float4[]
  [1022, 701], // float8[]
  [1231, 1700], // numeric[]
  [1009, 25], // text[]
  [1015, 1043], // varchar[]
  [1014, 1042], // bpchar[]
  [1003, 19], // name[]
  [2951, 2950], // uuid[]
  [199, 114], // json[]
  [3807, 3802], // jsonb[]
  [1182, 1082], // date[]
  [1115, 1114], // timestamp[]
  [1185, 1184], // timestamptz[]
]);

function buildParsers(): ReadonlyMap<number, ElementParser> {
  const parsers = new Map(SCALAR_PARSERS);
  for (const [arrayOid, elementOid] of ARRAY_ELEMENTS) {
    const parseElement = SCALAR_PARSERS.get(elementOid) ?? asText;
    parsers.set(arrayOid, (text) => parseArrayLiteral(text, parseElement));
  }
  return parsers;
}

const PARSERS = buildParsers();

/** The parser for a column of the given type OID; unknown types (enums, user types) stay text. */
export function typeParserFor(oid: number): ElementParser {
  return PARSERS.get(oid) ?? asText;
}

/** The same table in the shape pg's Client/Pool `types` option expects (text format only). */
export const pgTypeParsers: CustomTypesConfig = {
  getTypeParser: (oid: number) => typeParserFor(oid),
};
