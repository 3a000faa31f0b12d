// Kleene's three-valued logic: a condition is true, false or pending (not known yet: checks
// running, a field the service could not read). Pending never counts as failed: `and` is false
// only when some part is false, `or` true as soon as some part is true.
export type Match = 'true' | 'false' | 'pending';

export function fromBoolean(value: boolean): Match {
  return value ? 'true' : 'false';
}

export function negate(match: Match): Match {
  return match === 'pending' ? 'pending' : match === 'true' ? 'false' : 'true';
}

export function anyOf(matches: Iterable<Match>): Match {
  let result: Match = 'false';
  for (const match of matches) {
    if (match === 'true') return 'true';
    if (match === 'pending') result = 'pending';
  }
  return result;
}

/** Two values at a time, for folding without building a list. */
export function both(a: Match, b: Match): Match {
  return a === 'false' || b === 'false' ? 'false' : a === 'pending' || b === 'pending' ? 'pending' : 'true';
}

export function either(a: Match, b: Match): Match {
  return a === 'true' || b === 'true' ? 'true' : a === 'pending' || b === 'pending' ? 'pending' : 'false';
}
