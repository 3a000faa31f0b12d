// The value of a leaf, read for its attribute's kind and the operator: compiled patterns, teams,
// numbers, times, schedules, permissions. A message here completes "<attribute> ..." and says
// what to write instead.
import type { AttributeName } from './attribute-names.ts';
import type { AttributeSpec, Operator } from './attribute-specs.ts';
import { compileGlob, compileRegex } from './compile-pattern.ts';
import type { Operand } from './condition.ts';
import { isInterval, MAX_AGO, parseInterval, parseRelative, parseTimestamp } from './parse-time.ts';
import { PERMISSIONS } from './permissions.ts';
import { parseSchedule } from './schedule.ts';

export type OperandParse = { ok: true; operand: Operand; unsupported?: string } | { ok: false; msg: string };

const AUTHOR = /^\{\{ *author *\}\}$/;
const TEAM = /^@([A-Za-z0-9_.-]+)(?:\/([A-Za-z0-9_.-]+))?$/;
const APP_CHECK = /^@[^/\s]+\/./;
const TIME_EXAMPLES = 'a timestamp such as 2024-05-01T09:30Z or a relative time such as 7 days ago';

export function parseOperand(attribute: AttributeName, spec: AttributeSpec, operator: Operator, value: string, length: boolean): OperandParse {
  if (length) return integer(`#${attribute}`, value);
  switch (spec.kind) {
    case 'text':
    case 'login':
    case 'check':
      return textual(attribute, spec.kind, operator, value);
    case 'integer':
    case 'count':
      return integer(attribute, value);
    case 'time':
      return time(attribute, value);
    case 'now':
      return clock(operator, value);
    case 'schedule': {
      const parsed = parseSchedule(value);
      return parsed.ok ? { ok: true, operand: { kind: 'schedule', schedule: parsed.schedule } } : { ok: false, msg: `the value ${parsed.msg}` };
    }
    case 'permission':
      return permission(value);
    case 'boolean':
    case 'opaque':
      return { ok: true, operand: { kind: 'unsupported' } };
  }
}

function textual(attribute: AttributeName, kind: 'text' | 'login' | 'check', operator: Operator, value: string): OperandParse {
  const ignoreCase = kind === 'login';
  if (operator === '~=' || operator === '*=') {
    const compiled = operator === '~=' ? compileRegex(value, ignoreCase) : compileGlob(value, ignoreCase);
    if (!compiled.ok) return { ok: false, msg: compiled.msg };
    return { ok: true, operand: { kind: operator === '~=' ? 'regex' : 'glob', regex: compiled.regex } };
  }
  if (AUTHOR.test(value)) return { ok: true, operand: { kind: 'author' } };
  if (kind === 'login' && value.startsWith('@')) return team(attribute, operator, value);
  if (kind === 'check' && APP_CHECK.test(value)) {
    return { ok: true, operand: { kind: 'unsupported' }, unsupported: `Switchyard does not tell checks apart by GitHub App (${value}): name the check alone` };
  }
  if (kind === 'check' && value.startsWith('@')) return { ok: false, msg: `${attribute} names a GitHub App's check as @app-slug/check-name, not ${value}` };
  return { ok: true, operand: { kind: 'text', value: ignoreCase ? value.toLowerCase() : value } };
}

function team(attribute: AttributeName, operator: Operator, value: string): OperandParse {
  const match = TEAM.exec(value);
  if (!match) return { ok: false, msg: `${attribute} names the team ${value}: write @team or @organization/team` };
  if (operator !== '=' && operator !== '!=') return { ok: false, msg: `${attribute} compares with a team only with = or !=` };
  const [org, slug] = match[2] === undefined ? [null, match[1]!] : [match[1]!, match[2]];
  return { ok: true, operand: { kind: 'team', org: org?.toLowerCase() ?? null, slug: slug.toLowerCase() } };
}

function integer(attribute: string, value: string): OperandParse {
  if (!/^[+-]?\d{1,19}$/.test(value)) return { ok: false, msg: `${attribute} compares with a whole number such as 2, not ${value}` };
  return { ok: true, operand: { kind: 'integer', value: BigInt(value) } };
}

function time(attribute: AttributeName, value: string): OperandParse {
  const ago = parseRelative(value);
  if (ago !== null && ago > MAX_AGO) return { ok: false, msg: `${attribute} compares with a relative time of at most 36525 days, not ${value}` };
  if (ago !== null) return { ok: true, operand: { kind: 'ago', milliseconds: ago } };
  const parsed = parseTimestamp(value);
  if (!parsed.ok) return { ok: false, msg: parsed.malformed ? `${attribute} compares with ${TIME_EXAMPLES}, not ${value}` : `the value ${parsed.msg}` };
  return { ok: true, operand: { kind: 'span', start: new Date(parsed.span.start), end: new Date(parsed.span.end) } };
}

/** `current-datetime`: a timestamp, or with = and != also an interval start/end. */
function clock(operator: Operator, value: string): OperandParse {
  if (parseRelative(value) !== null) return { ok: false, msg: `current-datetime is the clock itself: compare it with a timestamp such as 2024-05-01T09:30Z, not ${value}` };
  const interval = operator === '=' || operator === '!=';
  const parsed = interval && isInterval(value) ? parseInterval(value) : parseTimestamp(value);
  if (!parsed.ok) return { ok: false, msg: `the value ${parsed.msg}` };
  return { ok: true, operand: { kind: 'span', start: new Date(parsed.span.start), end: new Date(parsed.span.end) } };
}

function permission(value: string): OperandParse {
  const rank = PERMISSIONS.indexOf(value.toLowerCase() as (typeof PERMISSIONS)[number]);
  if (rank === -1) return { ok: false, msg: `sender-permission compares with one of ${PERMISSIONS.join(', ')}, not ${value}` };
  return { ok: true, operand: { kind: 'permission', rank } };
}
