import type { CardNote } from '../grade/index.js';
import type { BootstrapInterval } from '../stats/index.js';
import { formatScore } from '../text/index.js';
import { escapeHtml as e } from './escape-html.js';

const interval = (v: BootstrapInterval | null) =>
  v && v.estimate !== null
    ? `${formatScore(v.estimate)} <span class="ci">[${formatScore(v.lower)}, ${formatScore(v.upper)}]</span>`
    : '–';

/**
 * Beside the judged metrics: for each judge, its agreement with people and the human ceiling of
 * the same measure, from its judge card, or a plain statement that it has none. Every value from
 * the card (a file the reader may not trust) is escaped.
 */
export function renderJudgeAgreement(notes: readonly CardNote[]): string {
  const rows = notes
    .map((n) => {
      const judge = `${e(n.what)}<br><span class="model">${e(n.judge)}</span>${n.prompt_version ? ` <span class="hash">prompt ${e(n.prompt_version)}</span>` : ''}`;
      if (n.card === null) {
        return `<tr><td>${judge}</td><td colspan="4" class="warn">no judge card found (searched ${e(n.searched.join(', ') || 'nothing')}): agreement with people not measured</td></tr>`;
      }
      return `<tr><td>${judge}</td><td>${e(n.set ?? '')}</td><td>${e(n.measure_name ?? 'agreement')}</td><td class="num">${interval(n.agreement)}</td><td class="num">${n.ceiling ? interval(n.ceiling) : 'n/a (one label per item)'}</td></tr>`;
    })
    .join('');
  const uncertified = notes
    .filter((n) => n.uncertified !== null)
    .map(
      (n) =>
        `<p class="warn"><strong>Uncertified:</strong> ${e(n.metrics.join(', ') || n.what)} shown, not ranked (left out of the pairwise comparison): ${e(n.uncertified!)}</p>`,
    );
  const files = notes
    .filter((n) => n.card !== null)
    .map((n) => `<li class="path">${e(n.card!)}${n.found ? ' (found in the workspace)' : ''}</li>`);
  return `<section id="judge-agreement" aria-labelledby="ja-h"><h2 id="ja-h">Judge agreement with people</h2>
<p class="hint">The judged metrics above come from LLM judges. Each judge's card (<code>citegeist meta-eval judge</code>) measures how it agrees with people on a public human-judgment set, beside how people agree with each other on the same items (the ceiling); 95% bootstrap intervals.</p>
<table class="board"><thead><tr><th>judge</th><th>human set</th><th>measure</th><th>judge vs people</th><th>people vs people (ceiling)</th></tr></thead><tbody>${rows}</tbody></table>
${uncertified.join('')}${files.length ? `<ul class="notes">${files.join('')}</ul>` : ''}</section>`;
}
