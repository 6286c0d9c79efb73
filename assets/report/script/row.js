// ---- one row ------------------------------------------------------------------------------
function paperLink(p, m, text) {
  return m === null || m === undefined ? null : link({ paper: String(p), mark: String(m) }, text);
}

function rowView(params) {
  const q = questionById.get(params.get('row'));
  if (q === undefined) {
    missingView(
      h(
        'span',
        null,
        'No row with the id ',
        cut(params.get('row'), 80),
        ` in this report (it has ${D.questions.length} rows). `,
      ),
      link({ rows: '' }, 'All rows'),
    );
    return;
  }
  const qq = D.questions[q];
  const paper = qq.p === null ? null : D.papers[qq.p];
  put(
    app,
    h(
      'p',
      null,
      link({ rows: '' }, '← rows'),
      ' ',
      q > 0 ? link({ row: D.questions[q - 1].id }, '‹ previous') : null,
      ' ',
      q + 1 < D.questions.length ? link({ row: D.questions[q + 1].id }, 'next ›') : null,
    ),
    h('h2', { class: 'question' }, qq.question || cut(qq.id)),
    h(
      'p',
      { class: 'meta' },
      cut(qq.id, 80),
      ` · ${qq.type}${qq.domain ? ` · ${qq.domain}` : ''} · paper `,
      paper ? link({ paper: String(qq.p) }, paper.title || paper.id) : `${qq.paperId} (not available)`,
    ),
    qq.bare
      ? h(
          'p',
          { class: 'hint' },
          'This row is not in the dataset given (or none was given): question, expected answer and gold evidence are unknown.',
        )
      : null,
    qq.expected
      ? h(
          'section',
          { class: 'expected' },
          h('h3', null, 'Expected answer'),
          h('p', { class: 'text' }, qq.expected),
        )
      : null,
    goldGroups(qq),
    h('h3', null, 'Answers'),
    h(
      'div',
      { class: `answers n${Math.min(byQuestion[q].length, 5)}` },
      byQuestion[q].map((ai) => answerCard(ai, qq)),
    ),
  );
  const focus = params.get('run');
  if (focus !== null) {
    const card = app.querySelector(`[data-run="${Number(focus)}"]`);
    if (card) {
      card.classList.add('target');
      card.scrollIntoView({ block: 'start' });
      // A citation chip's link: the citation with that key (compared as text, never as a selector).
      const key = params.get('cite');
      const cite =
        key === null
          ? null
          : [...card.querySelectorAll('li.cite')].find((li) => li.getAttribute('data-key') === key);
      if (cite) {
        cite.classList.add('target');
        cite.scrollIntoView({ block: 'center' });
      }
    }
  }
}

// `[^1]`, `[^2, ^3]`: the citation markers of the answer contract (src/answer/evidence-parser.ts).
const MARKER = /\[\^\s*([^\]\s,^]+)((?:\s*,\s*\^?\s*[^\]\s,^]+)*)\s*\]/g;
/**
 * An answer's text with each citation marker shown as chips, one per key, each a link to its
 * citation below (a key with no citation is marked); the rest stays text.
 */
function answerText(a) {
  const out = h('div', { class: 'text answer-text' });
  const keys = new Set(a.citations.map((c) => c.key));
  const qid = D.questions[a.q].id;
  let at = 0;
  for (const m of a.text.matchAll(MARKER)) {
    out.append(a.text.slice(at, m.index));
    at = m.index + m[0].length;
    const all = [
      m[1],
      ...m[2]
        .split(',')
        .map((k) => k.replace(/[\s^]/g, ''))
        .filter(Boolean),
    ];
    for (const k of all) {
      const c = a.citations.find((x) => x.key === k);
      const chip = link({ row: qid, run: String(a.r), cite: k }, k);
      chip.classList.add('cite-chip');
      if (keys.size && !keys.has(k)) {
        chip.classList.add('bad');
        chip.setAttribute('title', `[^${k}]: no citation has this key`);
      } else if (c) chip.setAttribute('title', c.quote.length > 300 ? `${c.quote.slice(0, 300)}…` : c.quote);
      out.append(chip);
    }
  }
  out.append(a.text.slice(at));
  return out;
}

function goldGroups(qq) {
  if (qq.groups.length === 0)
    return qq.bare ? null : h('p', { class: 'hint' }, 'No gold evidence groups for this row.');
  return h(
    'section',
    { class: 'gold' },
    h('h3', null, 'Gold evidence groups'),
    h(
      'p',
      { class: 'hint' },
      'Each group must be covered by a citation (AND); any one of its alternatives will do (OR).',
    ),
    h(
      'ol',
      null,
      qq.groups.map((g) =>
        h(
          'li',
          null,
          h('span', { class: 'label' }, g.label || '(no section label)'),
          h(
            'ol',
            { class: 'alts' },
            g.alts.map((alt) =>
              h(
                'li',
                null,
                h('blockquote', null, alt.text),
                alt.m === null
                  ? h('span', { class: 'warn' }, 'not found in the paper text')
                  : paperLink(qq.p, alt.m, `in the paper${alt.page ? `, page ${alt.page}` : ''}`),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function scoresTable(a) {
  const rows = D.metrics.map((m) => {
    const st = a.status[m.id];
    const v = a.scores[m.id];
    const value =
      typeof v === 'number'
        ? h('td', { class: 'num' }, fmt(v))
        : st === 'failed'
          ? h('td', { class: 'bad' }, 'failed', a.errors[m.id] ? `: ${a.errors[m.id]}` : '')
          : h('td', { class: 'na' }, 'n/a');
    return h('tr', null, h('th', { title: m.description }, m.label), value);
  });
  return h('table', { class: 'scores' }, rows);
}

function ruleBadge(c) {
  if (c.rule === 'none') return h('span', { class: 'badge bad' }, 'not found');
  if (c.rule === 'unchecked') return h('span', { class: 'badge na' }, 'not checked');
  if (c.prefixOnly)
    return h(
      'span',
      {
        class: 'badge warn',
        title:
          'Accepted by the published rule only because a verbatim prefix matched; the strict matcher rejects the quote.',
      },
      `prefix-only (${c.rule})`,
    );
  return h('span', { class: 'badge ok' }, c.rule, c.strict !== c.rule ? ` (strict: ${c.strict})` : '');
}

// A nearest passage is stored once, in the paper text, when the report embeds it.
function nearText(qq, c) {
  if (c.near.text !== null) return c.near.text;
  const p = D.papers[qq.p];
  const [s, e] = p.marks[c.near.m];
  const part = p.parts.find(([o, t]) => o <= s && o + t.length >= e);
  return part ? part[1].slice(s - part[0], e - part[0]) : '';
}

function citationItem(c, qq) {
  const where = [c.page ? `page ${c.page}` : null, c.section].filter(Boolean).join(', ');
  const gold = c.gold
    ? h(
        'span',
        { class: 'ok' },
        `matches gold group ${c.gold.g + 1}, alternative ${c.gold.a + 1}${c.gold.ratio === null ? '' : ` (ratio ${fmt(c.gold.ratio, 2)})`}`,
      )
    : qq.groups.length
      ? h('span', { class: 'warn' }, 'matches no gold alternative')
      : null;
  return h(
    'li',
    { class: 'cite', 'data-key': c.key },
    h('span', { class: 'key' }, `[${c.key}]`),
    ' ',
    ruleBadge(c),
    where ? ` ${where} ` : ' ',
    paperLink(qq.p, c.m, 'show in paper'),
    h('blockquote', null, c.quote),
    gold ? h('div', null, gold) : null,
    c.near
      ? h(
          'div',
          { class: 'near' },
          `Nearest passage (similarity ${fmt(c.near.similarity, 2)}${c.near.page ? `, page ${c.near.page}` : ''}) `,
          paperLink(qq.p, c.near.m, 'show in paper'),
          h('blockquote', null, nearText(qq, c)),
        )
      : null,
  );
}

function judgeBlock(j, a) {
  if (!j) return null;
  return h(
    'div',
    { class: 'judge' },
    h('h4', null, 'Judge', j.by ? ` (${j.by})` : ''),
    j.ownFactual !== null && j.ownFactual !== a.scores.factual_accuracy
      ? h(
          'p',
          { class: 'warn' },
          `The judge gave factual accuracy ${j.ownFactual}; unverified support capped it at ${fmt(a.scores.factual_accuracy, 0)}.`,
        )
      : null,
    j.justification ? h('p', { class: 'text' }, j.justification) : null,
    j.grounding?.length
      ? h(
          'ul',
          { class: 'grounding' },
          j.grounding.map((g) =>
            h(
              'li',
              null,
              h('span', { class: g.status.startsWith('located') ? 'ok' : 'warn' }, g.status || '?'),
              ' ',
              g.claim,
              g.quote ? ` ↔ “${g.quote}”` : '',
            ),
          ),
        )
      : null,
  );
}

function answerCard(ai, qq) {
  const a = D.answers[ai];
  const facts = [
    a.cached ? h('span', { class: 'badge na' }, 'from cache') : null,
    typeof a.latency === 'number' ? h('span', { class: 'meta' }, ` · ${fmt(a.latency, 2)} s`) : null,
    typeof a.cost === 'number' ? h('span', { class: 'meta' }, ` · $${a.cost.toFixed(5)}`) : null,
  ];
  return h(
    'article',
    { class: 'answer', 'data-run': a.r },
    h('h4', null, runName(a.r), ' ', facts),
    a.error ? h('p', { class: 'bad' }, `Failed: ${a.error}`) : null,
    scoresTable(a),
    a.text === null
      ? h('p', { class: 'hint' }, 'Answer text not available: give the run file with --runs.')
      : answerText(a),
    a.citations.length
      ? h(
          'ol',
          { class: 'cites' },
          a.citations.map((c) => citationItem(c, qq)),
        )
      : h(
          'p',
          { class: 'hint' },
          a.nCitations ? `${a.nCitations} citation(s); give the run file to see them.` : 'No citations.',
        ),
    judgeBlock(a.judge, a),
    a.vet !== null ? vetSummary(a.vet) : null,
  );
}
