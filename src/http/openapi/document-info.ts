// What the API document says about the API as a whole: its title and introduction, where a
// client points (the server), the credentials, and what each group of operations is for.
import type { Guide } from '../docs/guides.ts';

/** Paths in the document are relative to this prefix, as in the public API: a client's base URL is `https://<host>/v1`. */
export const API_PREFIX = '/v1';

export const securitySchemes = {
  ServiceTokenBearerAuth: { type: 'http', scheme: 'bearer', description: 'The service token (SWITCHYARD_SERVICE_TOKEN): every right on every owner.' },
  AdminApplicationKey: { type: 'http', scheme: 'bearer', description: 'An application key (swy_…) created with the `admin` scope, bound to one owner.' },
  CIApplicationKey: { type: 'http', scheme: 'bearer', description: 'An application key (swy_…) created with the `ci` scope, bound to one owner.' },
  HostingTokenBearerAuth: { type: 'http', scheme: 'bearer', description: "A hosting-platform user token; rights come from the platform's repository permissions." },
} as const;

const guideLink = (slug: string, text: string) => `[${text}](/docs/guides/${slug})`;

/** Tags in the order the reference shows them; a tag not listed here still works, without a description. */
const TAGS: readonly { name: string; description: string }[] = [
  { name: 'scopes', description: `Which scopes (named parts of a code base) a pull request or commit touches, as CI reports them. ${guideLink('scopes', 'Scope reports guide')}.` },
  { name: 'products', description: 'Products enabled per repository, and the defaults of an owner for its new repositories.' },
  {
    name: 'activity log',
    description: `What happened to a repository's pull requests: listed a page at a time, or aggregated. ${guideLink('activity-log', 'Activity log guide')}, ${guideLink('events', 'event types')}.`,
  },
  { name: 'admin', description: 'Service token only: application keys, repositories, pull request state.' },
  { name: 'webhooks', description: 'Hosting-platform webhooks, signed with the shared secret.' },
];

function introduction(guides: readonly Guide[]): string {
  return [
    'Merge-queue scope reports, products per repository and owner, and the activity log of a repository.',
    'Paths are relative to the server `/v1`: a client is given the base URL `https://<host>/v1` and nothing else. Every call carries `Authorization: Bearer <token>` (see the security schemes). Errors are JSON: `{"detail": "<sentence>"}`, or for a 422 the list of invalid values.',
    'Integers marked `int64` (pull request numbers, event ids, platform ids) are written as plain JSON numbers, exactly: read them with a JSON parser that keeps integers above 2^53 when yours would round them.',
    `The raw document: [/v1/openapi.json](/v1/openapi.json). Guides: ${guides.map((guide) => guideLink(guide.slug, guide.title)).join(' · ')}.`,
  ].join('\n\n');
}

export function documentInfo(guides: readonly Guide[]) {
  return {
    openapi: '3.1.0',
    info: { title: 'Switchyard API', version: 'v1', description: introduction(guides) },
    servers: [{ url: API_PREFIX, description: 'This Switchyard: the host serving this document, under /v1' }],
    tags: TAGS,
  };
}
