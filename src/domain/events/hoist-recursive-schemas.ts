// Ajv keeps every `$id` it meets in one table per instance, so a recursive schema (Type.Recursive
// carries an `$id`) embedded twice in one schema, or in two compiled schemas, is refused as
// ambiguous. Before compiling, each recursive schema moves into the root's `$defs` and every use
// becomes a local `#/$defs/...` reference, so compiled validators share no global name.

type Json = Record<string, unknown>;

export function hoistRecursiveSchemas(root: object): Json {
  const defs: Json = {};
  const body = rewriteChildren(root as Json, defs);
  return Object.keys(defs).length === 0 ? body : { ...body, $defs: defs };
}

function rewrite(node: unknown, defs: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, defs));
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Json;
  if (typeof schema.$id === 'string') return hoist(schema.$id, schema, defs);
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) return { ...schema, $ref: localRef(schema.$ref) };
  return rewriteChildren(schema, defs);
}

function hoist(name: string, schema: Json, defs: Json): Json {
  if (!(name in defs)) {
    defs[name] = true; // placeholder: the definition refers to itself
    const { $id: _id, ...rest } = rewriteChildren(schema, defs);
    defs[name] = rest;
  }
  return { $ref: localRef(name) };
}

function rewriteChildren(schema: Json, defs: Json): Json {
  const out: Json = {};
  for (const key of Object.keys(schema)) out[key] = rewrite(schema[key], defs);
  return out;
}

function localRef(name: string): string {
  return `#/$defs/${encodeURIComponent(name)}`;
}
