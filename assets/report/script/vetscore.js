// ---- VETSCORE -----------------------------------------------------------------------------
function vetSummary(vi) {
  const v = D.vetscore.answers[vi];
  const claims = v.segments.flatMap((s) => s.claims);
  return h(
    'div',
    { class: 'vet-summary' },
    h('h4', null, 'VETSCORE ', link({ vet: String(vi) }, 'claims')),
    h(
      'p',
      null,
      `score ${fmt(v.score)} · ${claims.length} claim(s), ${claims.filter((c) => c.v === 0).length} not supported, ${claims.filter((c) => c.verdict === 'unverified').length} unverified · ${v.status}`,
    ),
  );
}

const NO_VETSCORE =
  'This report has no VETSCORE section: it was built without faithfulness output (citegeist report --faithfulness FILE, from citegeist grade faithfulness).';
function vetListView(params) {
  if (!D.vetscore) {
    missingView(NO_VETSCORE);
    return;
  }
  const label = params.get('label') || '';
  const failedOnly = params.get('failed') === '1';
  const labels = [...new Set(D.vetscore.answers.map((a) => a.label))];
  const list = D.vetscore.answers
    .map((a, i) => [a, i])
    .filter(
      ([a]) =>
        (!label || a.label === label) &&
        (!failedOnly ||
          a.status === 'failed' ||
          a.segments.some((s) => s.claims.some((c) => c.status === 'failed'))),
    );
  filteredList({
    title: 'VETSCORE answers',
    runParam: 'label',
    runs: labels,
    run: label,
    failedOnly,
    failedLabel: 'failed only',
    count: `${list.length} of ${D.vetscore.answers.length} answers`,
    headers: ['answer', 'run', 'score', 'status', 'claims', 'not supported'],
    rows: list.map(([a, i]) => {
      const claims = a.segments.flatMap((s) => s.claims);
      return [
        h('td', null, link({ vet: String(i) }, cut(a.id, 60))),
        h('td', null, cut(a.label, 60)),
        h('td', { class: 'num' }, fmt(a.score)),
        h('td', { class: a.status === 'failed' ? 'bad' : '' }, a.status),
        h('td', { class: 'num' }, String(claims.length)),
        h('td', { class: 'num' }, String(claims.filter((c) => c.v === 0).length)),
      ];
    }),
  });
}

function claimRow(c) {
  const verdictClass =
    c.status === 'failed'
      ? 'bad'
      : c.verdict === 'supported'
        ? 'ok'
        : c.verdict === 'unverified'
          ? 'warn'
          : 'bad';
  return h(
    'tr',
    null,
    h('td', null, c.text),
    h(
      'td',
      { class: verdictClass },
      c.status === 'failed' ? `failed${c.failure ? `: ${c.failure}` : ''}` : c.verdict || '?',
    ),
    h('td', { class: 'num' }, c.harm === null ? '–' : String(c.harm)),
    h('td', { class: 'num' }, c.weight === null ? '–' : `${fmt(c.weight, 2)} (${fmt(100 * c.share, 1)}%)`),
    h(
      'td',
      null,
      c.evidence ? h('blockquote', null, c.evidence) : null,
      c.span
        ? h(
            'div',
            { class: 'ok' },
            `found in [${c.span.key}]${c.span.rule ? ` (${c.span.rule})` : ''}`,
            c.span.text && c.span.text !== c.evidence ? h('blockquote', null, c.span.text) : null,
          )
        : null,
      c.nearest
        ? h(
            'div',
            { class: 'warn' },
            `not in the excerpts; nearest (similarity ${fmt(c.nearest.similarity, 2)}):`,
            h('blockquote', null, c.nearest.text),
          )
        : null,
      c.rationale ? h('p', { class: 'text' }, c.rationale) : null,
      c.harmRationale ? h('p', { class: 'text hint' }, `harm: ${c.harmRationale}`) : null,
    ),
  );
}

function vetView(params) {
  if (!D.vetscore) {
    missingView(NO_VETSCORE);
    return;
  }
  const given = params.get('vet');
  const v = /^\d+$/.test(given) ? D.vetscore.answers[Number(given)] : undefined;
  if (!v) {
    missingView(
      h(
        'span',
        null,
        'No VETSCORE answer ',
        cut(given, 80),
        ` in this report: its ${D.vetscore.answers.length} answers are numbered from 0. `,
      ),
      link({ vetscore: '' }, 'All VETSCORE answers'),
    );
    return;
  }
  const graded = v.a === null ? null : D.answers[v.a];
  put(
    app,
    h(
      'p',
      null,
      link({ vetscore: '' }, '← VETSCORE answers'),
      graded
        ? [' · ', link({ row: D.questions[graded.q].id, run: String(graded.r) }, 'graded answer')]
        : null,
    ),
    h('h2', null, v.question || cut(v.id)),
    h(
      'p',
      { class: 'meta' },
      cut(v.id, 80),
      ` · ${v.label} · score ${fmt(v.score)} (${v.status})${v.p === null ? '' : ` · p = ${v.p}`}${v.judges ? ` · ${v.judges}` : ''}`,
    ),
    v.failures.length
      ? h(
          'ul',
          { class: 'bad' },
          v.failures.map((f) => h('li', null, f)),
        )
      : null,
    v.segments.map((s, i) =>
      h(
        'section',
        { class: 'segment' },
        h(
          'h3',
          null,
          `Segment ${i}`,
          s.keys.length ? ` cites [${s.keys.join('], [')}]` : ' (no citation)',
          s.penalty === null ? '' : ` · penalty ${fmt(s.penalty)}`,
          s.status !== 'scored' ? ` · ${s.status}` : '',
        ),
        h('p', { class: 'text' }, s.text),
        s.claims.length
          ? h(
              'table',
              { class: 'claims' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['claim', 'verdict', 'harm', 'weight ω (share)', 'evidence'].map((t) => h('th', null, t)),
                ),
              ),
              h('tbody', null, s.claims.map(claimRow)),
            )
          : null,
      ),
    ),
  );
}
