// What conditions read from a pull request's description: `body` is it without Markdown/HTML
// comments (templates hide instructions there), and `Depends-On:` lines name other pull requests.

/** The description without `<!-- … -->` comments (an unclosed one runs to the end, as in HTML). */
export function bodyWithoutComments(raw: string): string {
  return raw.replace(/<!--[\s\S]*?(?:-->|$)/g, '').trim();
}

const DEPENDS_ON = /^[ \t]*Depends-On:[ \t]*(\S+)[ \t]*$/gim;
const SAME_REPOSITORY = /^#(\d{1,19})$/;
const OTHER_REPOSITORY = /^([\w.-]{1,100})\/([\w.-]{1,100})#(\d{1,19})$/;
const PULL_URL = /^https?:\/\/[^/\s]+\/([\w.-]{1,100})\/([\w.-]{1,100})\/pull\/(\d{1,19})\/?$/;

export type DependencyReference = { kind: 'pull'; repository: string; number: bigint } | { kind: 'invalid'; text: string };

/**
 * Each `Depends-On:` line of the description, as `owner/repo` and number (this repository when
 * only `#N` is given); a line whose reference does not parse is kept as invalid, so the reason
 * can be shown. At most 50 are read.
 */
export function dependsOnReferences(body: string, repositoryFullName: string): DependencyReference[] {
  const found: DependencyReference[] = [];
  for (const match of bodyWithoutComments(body).matchAll(DEPENDS_ON)) {
    if (found.length >= 50) break;
    found.push(referenceOf(match[1]!, repositoryFullName));
  }
  return found;
}

function referenceOf(text: string, repositoryFullName: string): DependencyReference {
  const same = SAME_REPOSITORY.exec(text);
  if (same) return { kind: 'pull', repository: repositoryFullName, number: BigInt(same[1]!) };
  const other = OTHER_REPOSITORY.exec(text) ?? PULL_URL.exec(text);
  if (other) return { kind: 'pull', repository: `${other[1]}/${other[2]}`, number: BigInt(other[3]!) };
  return { kind: 'invalid', text: text.slice(0, 200) };
}

/** `owner/repo#N`, the form the `depends-on` attribute compares. */
export function referenceText(reference: DependencyReference): string {
  return reference.kind === 'pull' ? `${reference.repository}#${reference.number}` : reference.text;
}
