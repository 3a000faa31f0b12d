// The hand-written RFC 3339 reader against its references: ajv-formats' full `date-time` format
// (timezone required), which it replaced as the validator, and the regex reading it replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import formatsModule from 'ajv-formats/dist/formats.js';
import { isDateTime, parseDateTime } from '../../src/domain/date-time.ts';

const { fullFormats } = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as { fullFormats: Record<string, { validate: (text: string) => boolean }> };
const ajvDateTime = fullFormats['date-time']!.validate;

// The previous reader (regex), kept as the model.
const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/;
function modelParse(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const time = date.getTime() - (sign === '-' ? -offset : sign === '+' ? offset : 0);
  return Number.isFinite(time) && time >= Date.parse('0000-01-01T00:00:00.000Z') && time <= Date.parse('9999-12-31T23:59:59.999Z') ? time : undefined;
}

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
// Near-valid date-times: every field over its range and beyond, every separator and zone form.
const dateTimeLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two(13), two(32), fc.constantFrom('T', 't', ' ', '\u2028', '\u00a0', 'x', '_'), two(25), two(61), two(62),
    fc.option(fc.stringMatching(/^\.[0-9]{0,8}$/), { nil: '' }),
    fc.option(fc.stringMatching(/^9{10,20}[0-9]{0,5}$/), { nil: '' }),
    fc.constantFrom('Z', 'z', '', '+', '-', '+01', '-23', '+24', '+05:30', '-0530', '+05:3', '+0560', '+12:60', 'ZZ', 'Z ', '+01:00:00'),
  )
  .map(([y, mo, d, sep, h, mi, s, frac, nines, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac && frac + nines}${zone}`);

test('accepts exactly what ajv-formats accepts, on near-valid and arbitrary text', () => {
  fc.assert(fc.property(dateTimeLike, (text) => assert.equal(isDateTime(text), ajvDateTime(text), text)), { numRuns: 20000 });
  fc.assert(fc.property(fc.string({ maxLength: 40 }), (text) => assert.equal(isDateTime(text), ajvDateTime(text), text)), { numRuns: 5000 });
  const dateTimeAlphabet = fc.constantFrom('0', '1', '2', '5', '9', '-', ':', '.', 'T', 't', 'Z', 'z', '+', ' ', 'q');
  fc.assert(fc.property(fc.string({ unit: dateTimeAlphabet, minLength: 18, maxLength: 30 }), (text) => assert.equal(isDateTime(text), ajvDateTime(text), text)), { numRuns: 20000 });
  for (const text of ['2024-02-29T12:00:00Z', '2023-02-29T12:00:00Z', '1900-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2016-12-31T23:59:60Z', '2016-12-31T23:59:60.5Z', '2017-01-01T00:59:60+01:00', '2016-12-31T22:59:60-01:00', '2016-12-31T12:59:60Z', '2024-01-01T00:00:00', '2024-01-01T00:00:00.Z', '2016-01-01T12:00:59.999999999999997Z', '2016-12-31T23:59:60.99999999999999999Z', '2016-12-31T23:59:59.99999999999999999Z']) {
    assert.equal(isDateTime(text), ajvDateTime(text), text);
  }
});

test('reads the same instant as the regex reader it replaced', () => {
  fc.assert(
    fc.property(dateTimeLike, (text) => {
      const model = modelParse(text);
      assert.equal(parseDateTime(text)?.getTime(), model, text);
    }),
    { numRuns: 20000 },
  );
  assert.equal(parseDateTime('2016-12-31T23:59:60.123456Z')?.toISOString(), '2017-01-01T00:00:00.123Z', 'a leap second is the next minute; microseconds truncated');
  assert.equal(parseDateTime('0000-01-01T00:00:00+01:00'), undefined, 'before year 0 in UTC');
});
