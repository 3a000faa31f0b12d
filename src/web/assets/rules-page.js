// A pull request's rules (`/repos/{owner}/{repository}/rules?pull=N`): the rules engine's last
// evaluation as the Summary check run shows it. Rules that match, then those that could still
// match, then, folded, those that cannot apply to this pull request (a condition on its base,
// head or author is false), then the disabled ones struck through with the reason.
import { useEffect, useState } from './preact-hooks.js';
import { html } from './html.js';
import { repoPath } from './api.js';
import { utc } from './format.js';
import { navigate, repoUrl } from './router.js';
import { Loading, ProblemView } from './problem-view.js';
import { useApi } from './use-api.js';
import { DisabledRule, RuleItem } from './rule-checklist.js';

const NUMBER = /^\d{1,19}$/;

function groups(rules) {
  const enabled = rules.filter((rule) => rule.disabled_reason === null);
  return {
    matching: enabled.filter((rule) => rule.match === 'true'),
    potential: enabled.filter((rule) => rule.match !== 'true' && rule.applicable),
    outOfScope: enabled.filter((rule) => rule.match !== 'true' && !rule.applicable),
    disabled: rules.filter((rule) => rule.disabled_reason !== null),
  };
}

function RuleList({ rules }) {
  return html`<ul class="rules">${rules.map((rule) => html`<${RuleItem} key=${`${rule.section}/${rule.name}`} rule=${rule} />`)}</ul>`;
}

function Group({ id, title, rules }) {
  if (rules.length === 0) return null;
  return html`<section class="rule-group" aria-labelledby=${id}><h3 id=${id}>${title} (${rules.length})</h3><${RuleList} rules=${rules} /></section>`;
}

function Evaluation({ report }) {
  const { matching, potential, outOfScope, disabled } = groups(report.rules);
  return html`<div class="evaluation" aria-live="polite">
    <h2>Pull request #${String(report.pull_request)}: <span class="summary-title">${report.title}</span></h2>
    <p class="meta">Head <code>${report.head_sha}</code>, evaluated ${utc(report.evaluated_at)}.</p>
    ${report.rules.length === 0 ? html`<p class="empty">This repository has no rules.</p>` : null}
    <${Group} id="rules-matching" title="Rules that match" rules=${matching} />
    <${Group} id="rules-potential" title="Rules that potentially match" rules=${potential} />
    ${outOfScope.length ? html`<details class="rule-group out-of-scope"><summary>Rules that cannot apply to this pull request (${outOfScope.length})</summary><${RuleList} rules=${outOfScope} /></details>` : null}
    ${disabled.length ? html`<section class="rule-group" aria-labelledby="rules-disabled"><h3 id="rules-disabled">Disabled rules (${disabled.length})</h3>
      <ul class="rules">${disabled.map((rule) => html`<${DisabledRule} key=${`${rule.section}/${rule.name}`} rule=${rule} />`)}</ul></section>` : null}
  </div>`;
}

function PullRules({ owner, repository, number }) {
  const loaded = useApi(`${repoPath(owner, repository)}/pulls/${number}/rules`);
  if (loaded.problem?.kind === 'not_found' && /not evaluated/.test(loaded.problem.detail)) {
    return html`<div class="empty" role="status"><p>The rules engine has not evaluated pull request #${number}.</p>
      <p class="hint">It evaluates open pull requests while a configuration file governs the repository (see Settings), after each change to them; a pull request closed before the file came has no evaluation.</p></div>`;
  }
  if (loaded.problem) return html`<${ProblemView} problem=${loaded.problem} onRetry=${loaded.retry} />`;
  if (!loaded.value) return html`<${Loading} what=${`the rules of #${number}`} />`;
  return html`<${Evaluation} report=${loaded.value} />`;
}

export function RulesPage({ owner, repository, search }) {
  const asked = new URLSearchParams(search).get('pull') ?? '';
  const [number, setNumber] = useState(asked);
  const [invalid, setInvalid] = useState(null);
  useEffect(() => setNumber(asked), [asked]);
  function look(event) {
    event.preventDefault();
    const given = number.trim().replace(/^#/, '');
    if (!NUMBER.test(given)) return setInvalid('Give a pull request number.');
    setInvalid(null);
    navigate(repoUrl(owner, repository, 'rules', `pull=${given}`));
  }
  return html`<main id="main" class="rules-page">
    <h1>Rules <span class="sub">${owner}/${repository}</span></h1>
    <form class="scopes" onSubmit=${look}>
      <label for="rules-pull">Pull request number</label>
      <input id="rules-pull" inputmode="numeric" value=${number} onInput=${(e) => setNumber(e.currentTarget.value)} />
      <button type="submit">Show its rules</button>
      ${invalid ? html`<p class="invalid" role="alert">${invalid}</p>` : null}
    </form>
    ${NUMBER.test(asked) ? html`<${PullRules} key=${asked} owner=${owner} repository=${repository} number=${asked} />` : null}
  </main>`;
}
