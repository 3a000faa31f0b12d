// What the generated clients do against a real server, as an integrator's program would, and what
// they report back for the test to check. Both clients (openapi-fetch over openapi-typescript's
// types, oazapfts) run the same scenario through their own generated code.

export interface ScenarioInput {
  /** The server's base URL with the version prefix, as a client is configured: http://host:port/v1 */
  baseUrl: string;
  token: string;
  /** Every request goes through it, so the test sees each exchange. */
  fetch: typeof fetch;
  owner: string;
  repository: string;
}

export interface ScenarioResult {
  registered: number;
  products: string[];
  defaultProducts: string[];
  commitScopes: string[];
  pullScopes: { scopes: string[]; source: string | null };
  deprecation: string | null;
  ingestedIds: number[];
  /** Event ids page by page, following the `Link` header's next page. */
  pages: number[][];
  listedTypes: string[];
  aggregateTotal: number;
  histogramTotal: number;
}

export const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
export const TRIGGER = 'generated client';
export const EVENT_COUNT = 25;

/** The cursor of the page a `Link` header names as `rel`. */
export function cursorOf(link: string | null, rel: 'next' | 'prev'): string | undefined {
  const match = new RegExp(`<([^>]+)>;\\s*rel="${rel}"`).exec(link ?? '');
  return match ? (new URL(match[1]!).searchParams.get('cursor') ?? undefined) : undefined;
}

/** 25 label events on pull request 7, the first sent with the public API's spelling of a type. */
export function labelEvents(): { type: 'action.label' | 'action.github_actions'; trigger: string; pull_request: number; base_ref: string; metadata: Record<string, unknown> }[] {
  return Array.from({ length: EVENT_COUNT }, (_, i) =>
    i === 0
      ? { type: 'action.github_actions', trigger: TRIGGER, pull_request: 7, base_ref: 'main', metadata: { workflow: 'deploy.yml', inputs: { env: 'staging' } } }
      : { type: 'action.label', trigger: TRIGGER, pull_request: 7, base_ref: 'main', metadata: { added: [`label-${i}`], removed: [] } },
  );
}
