// One rule as the Summary check run shows it: its name, what it does, and its conditions as a
// nested checklist, each true ✓, false ✗ or pending ⏳ (the mark is said in words to a screen
// reader), groups as "all of", "any of" and "not" with their parts below. Names and conditions
// come from a configuration file anyone with push access writes: Preact renders them as text.
import { html } from './html.js';

export const SECTION_NAMES = {
  pull_request_rules: 'Rule',
  queue_rules: 'Queue rule',
  priority_rules: 'Priority rule',
  merge_protections: 'Merge protection',
};

const MARKS = { true: ['✓', 'true'], false: ['✗', 'false'], pending: ['⏳', 'pending'] };

function Condition({ node }) {
  const [mark, word] = MARKS[node.state] ?? MARKS.false;
  const group = node.subconditions.length > 0;
  // The public tree says "pending" when it has no better reason: the mark says it already.
  const why = node.description && node.description !== 'pending' ? node.description : null;
  return html`<li class="condition" data-state=${node.state}>
    <span class="mark" aria-hidden="true">${mark}</span><span class="visually-hidden">${word}: </span>
    ${group ? html`<span class="group">${node.label}:</span>` : html`<code class="label">${node.label}</code>`}
    ${why ? html` <span class="why-not">(${why})</span>` : null}
    ${group ? html`<${Checklist} nodes=${node.subconditions} />` : null}
  </li>`;
}

function Checklist({ nodes }) {
  return html`<ul class="checklist">${nodes.map((node) => html`<${Condition} node=${node} />`)}</ul>`;
}

/** A rule's own "all of" is not repeated as a line, as in the Summary. */
function topConditions(tree) {
  return tree.label === 'all of' && tree.subconditions.length > 0 ? tree.subconditions : tree.label === 'all of' ? [] : [tree];
}

export function RuleItem({ rule }) {
  const top = rule.conditions ? topConditions(rule.conditions) : [];
  return html`<li class="rule" data-match=${rule.match} data-name=${rule.name}>
    <h4 class="rule-name"><span class="section">${SECTION_NAMES[rule.section] ?? rule.section}:</span> <span class="name">${rule.name}</span></h4>
    ${rule.does.length ? html`<ul class="does">${rule.does.map((line) => html`<li>${line}</li>`)}</ul>` : null}
    ${top.length ? html`<${Checklist} nodes=${top} />` : html`<p class="hint">No conditions: it always matches.</p>`}
  </li>`;
}

export function DisabledRule({ rule }) {
  return html`<li class="rule disabled" data-name=${rule.name}>
    <s><span class="section">${SECTION_NAMES[rule.section] ?? rule.section}:</span> <span class="name">${rule.name}</span></s><span class="visually-hidden"> (disabled)</span>: <span class="reason">${rule.disabled_reason}</span>
  </li>`;
}
