// Response headers declared alike on several answers (the rate-limit budget, Retry-After, the
// deprecation notice) are written once, under `components.headers`, and referred to by name.
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `headers` map of every response of every operation. */
function headerMaps(paths: Json): Json[] {
  return Object.values(paths).flatMap((item) =>
    Object.values(isObject(item) ? item : {}).flatMap((operation) =>
      isObject(operation) && isObject(operation.responses) ? Object.values(operation.responses).flatMap((r) => (isObject(r) && isObject(r.headers) ? [r.headers] : [])) : [],
    ),
  );
}

export function shareHeaders(paths: Json): Json {
  const maps = headerMaps(paths);
  const variants = new Map<string, Map<string, number>>();
  for (const map of maps) {
    for (const [name, value] of Object.entries(map)) {
      const text = JSON.stringify(value);
      const byText = variants.get(name) ?? new Map<string, number>();
      byText.set(text, (byText.get(text) ?? 0) + 1);
      variants.set(name, byText);
    }
  }
  const shared: Json = {};
  for (const [name, byText] of [...variants].sort(([a], [b]) => a.localeCompare(b))) {
    const [text, uses] = [...byText][0]!;
    if (byText.size === 1 && uses > 1) shared[name] = JSON.parse(text);
  }
  for (const map of maps) for (const name of Object.keys(map)) if (name in shared) map[name] = { $ref: `#/components/headers/${name}` };
  return shared;
}
