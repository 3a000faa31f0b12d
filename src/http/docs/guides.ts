// The guides of docs/*.md, as HTML pages of the reference: a link to another guide
// (`events.md#sending-events`) becomes a link to its page, and headings get ids so such anchors
// land. Read at start-up, rendered when first asked for (rendering all costs more than a start).
import { readdir, readFile } from 'node:fs/promises';
import { Marked, type Tokens } from 'marked';

export interface Guide {
  /** `activity-log` for docs/activity-log.md; its page is /docs/guides/activity-log. */
  readonly slug: string;
  readonly title: string;
  readonly markdown: string;
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

/** The guide as HTML, its links to the other `guides` pointing to their pages. */
export function renderGuide(guide: Guide, guides: readonly Guide[]): string {
  return guideRenderer(new Set(guides.map((other) => other.slug))).parse(guide.markdown, { async: false });
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
  // An installation without docs/ serves the reference alone.
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  const files = names.filter((name) => name.endsWith('.md')).sort();
  return Promise.all(
    files.map(async (name) => {
      const markdown = await readFile(new URL(name, dir), 'utf8');
      const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? name.slice(0, -3);
      return { slug: name.slice(0, -3), title, markdown };
    }),
  );
}
