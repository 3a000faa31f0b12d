// GitHub's page-number pagination: `per_page` (default 30, at most 100) and `page`, with a
// `Link` header naming the next and last pages.
export function paginate<T>(items: T[], query: URLSearchParams, url: string): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set('per_page', String(perPage));
    params.set('page', String(n));
    return `<${url}?${params}>; rel="${rel}"`;
  };
  const links = [];
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'));
  return { page: items.slice((page - 1) * perPage, page * perPage), headers: links.length ? { link: links.join(', ') } : {} };
}
