// The dashboard's only way to the server: the public /v1 API, with the token the person pasted
// (kept in this tab's sessionStorage, sent only as the bearer). Failures become Problems that say
// what to do (src/web/assets/problem-view.js shows them).

const TOKEN_KEY = 'switchyard.token';

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** A refusal or failure of the API, classified by what the person can do about it. */
export class Problem extends Error {
  constructor(kind, status, detail, retryAfter) {
    super(detail);
    this.kind = kind; // 'credential' | 'rights' | 'not_found' | 'rate_limited' | 'unavailable' | 'invalid' | 'unreachable' | 'conflict' | 'failed'
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

// Ids and pull request numbers are 64-bit: kept as the text they were sent as when a double
// would round them (JSON.parse's source text, where the browser gives it).
function keepBigIntegers(_key, value, context) {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value) && context?.source) return context.source;
  return value;
}

function detailOf(body) {
  if (typeof body?.detail === 'string') return body.detail;
  if (Array.isArray(body?.detail)) return body.detail.map((issue) => `${(issue.loc ?? []).slice(1).join('.')}: ${issue.msg}`).join('; ');
  return '';
}

function kindOf(status, detail) {
  if (status === 403) return /unknown|revoked|credential in the Authorization|kind of credential/i.test(detail) ? 'credential' : 'rights';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 422) return 'invalid';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  return 'failed';
}

/** Calls the API; answers `{body, headers}` or throws a Problem. */
export async function api(path, { method = 'GET', body, signal } = {}) {
  const headers = { accept: 'application/json' };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new Problem('unreachable', 0, 'Switchyard did not answer.');
  }
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text, keepBigIntegers) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const detail = detailOf(parsed) || `HTTP ${response.status}`;
    const retryAfter = Number(response.headers.get('retry-after')) || undefined;
    throw new Problem(kindOf(response.status, detail), response.status, detail, retryAfter);
  }
  return { body: parsed, headers: response.headers };
}

/** The `rel="next"` and `rel="prev"` targets of a Link header, as a path and query on this host. */
export function pageLinks(header) {
  const links = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>\s*;\s*rel="(next|prev)"/.exec(part.trim());
    if (match) {
      const url = new URL(match[1], location.href);
      links[match[2]] = url.searchParams.get('cursor');
    }
  }
  return links;
}

export const repoPath = (owner, repository) => `/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}`;
