// The `Link` header of a listing page: its rel="next" / rel="prev" URLs.
export function linkTarget(header: string | null, rel: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (match && new RegExp(`(?:^|;)\\s*rel="?([^";]*\\s)?${rel}(\\s[^";]*)?"?\\s*(?:;|$)`).test(match[2]!)) return match[1];
  }
  return undefined;
}
