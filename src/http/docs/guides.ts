// The guides of docs/*.md, rendered once as HTML pages of the reference: a link to another guide
// (`events.md#sending-events`) becomes a link to its page, and headings get ids so such anchors land.
import { readdir, readFile } from 'node:fs/promises';
import { Marked, type Tokens } from 'marked';

export interface Guide {
  /** `activity-log` for docs/activity-log.md; its page is /docs/guides/activity-log. */
  readonly slug: string;
  readonly title: string;
  readonly html: string;
}

export const GUIDES_DIR = new URL('../../../docs/', import.meta.url);

export function guideUrl(slug: string): string {
  return `/docs/guides/${slug}`;
}

/** GitHub's anchor rule, which the guides' own `#…` links follow. */
function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function guideRenderer(slugs: ReadonlySet<string>): Marked {
  return new Marked({
    walkTokens(token) {
      if (token.type !== 'link') return;
      const link = token as Tokens.Link;
      const match = /^([\w-]+)\.md(#.*)?$/.exec(link.href);
      if (match && slugs.has(match[1]!)) link.href = guideUrl(match[1]!) + (match[2] ?? '');
    },
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${headingId(inner)}">${inner}</h${depth}>\n`;
      },
    },
  });
}

/** Every guide of `dir`, sorted by slug. */
export async function loadGuides(dir: URL = GUIDES_DIR): Promise<Guide[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  const slugs = new Set(files.map((name) => name.slice(0, -3)));
  const marked = guideRenderer(slugs);
  return Promise.all(
    files.map(async (name) => {
      const text = await readFile(new URL(name, dir), 'utf8');
      const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? name.slice(0, -3);
      return { slug: name.slice(0, -3), title, html: await marked.parse(text) };
    }),
  );
}
