// Requests made invalid on purpose, starting from a valid one: a path, query, header or body
// value of the wrong type, out of range, too long, unicode storage cannot keep, bad dates, int64
// edges, unknown fields, missing ones, duplicate keys, truncated or non-JSON bodies, bodies over
// every size limit, malformed credentials. Each mutation checks its result against the
// document (schema-check.ts), so what is sent is invalid by the document or by DESIGN.md's
// stated rules, never merely unusual.
import fc from 'fast-check';
import type { Operation } from './openapi-operations.ts';
import type { RequestSpec } from './fuzz-http.ts';
import { validRequest, type FuzzWorld } from './fuzz-world.ts';
import type { Mutation } from './mutation-kit.ts';
import { credentialMutations, headerMutations, pathMutations, queryMutations } from './parameter-mutations.ts';
import { wholeBodyMutations } from './body-mutations.ts';

export function mutationsFor(world: FuzzWorld, op: Operation): Mutation[] {
  return [...pathMutations(world, op), ...queryMutations(world, op), ...credentialMutations(world, op), ...headerMutations(world, op), ...wholeBodyMutations(world, op)];
}

/** A request `op`'s document (or DESIGN.md) says must be refused. */
export function invalidRequest(world: FuzzWorld, op: Operation): fc.Arbitrary<RequestSpec> {
  const mutations = mutationsFor(world, op);
  return validRequest(world, op)
    .chain((spec) => fc.oneof(...mutations.map((m) => ({ weight: m.weight, arbitrary: m.apply(spec) }))))
    .filter((spec): spec is RequestSpec => spec !== undefined);
}
