// ---- ARGUE --------------------------------------------------------------------------------
const NO_ARGUE =
  'This report has no ARGUE section: it was built without judgments (citegeist report --judgments FILE --nuggets DIR, from citegeist reports judge).';
function argueListView(params) {
  if (!D.argue) {
    missingView(NO_ARGUE);
    return;
  }
  const run = params.get('run') || '';
  const failedOnly = params.get('failed') === '1';
  const runs = [...new Set(D.argue.reports.map((r) => r.run))];
  const list = D.argue.reports
    .map((r, i) => [r, i])
    .filter(([r]) => (!run || r.run === run) && (!failedOnly || r.failed > 0));
  filteredList({
    title: 'Judged reports',
    runParam: 'run',
    runs,
    run,
    failedOnly,
    failedLabel: 'failed judgments only',
    count: `${list.length} of ${D.argue.reports.length} reports`,
    headers: ['topic', 'run', 'sentences', 'nuggets met', 'failed judgments'],
    rows: list.map(([r, i]) => [
      h('td', null, link({ report: String(i) }, cut(r.topic, 60))),
      h('td', null, cut(r.run, 60)),
      h('td', { class: 'num' }, String(r.sentences.length)),
      h(
        'td',
        { class: 'num' },
        `${r.nuggets.filter((n) => n.satisfied).length} of ${r.nuggets.filter((n) => !n.unknown).length}`,
      ),
      h('td', { class: r.failed ? 'num bad' : 'num' }, String(r.failed)),
    ]),
  });
}

function argueView(params) {
  if (!D.argue) {
    missingView(NO_ARGUE);
    return;
  }
  const given = params.get('report');
  const ri = /^\d+$/.test(given) ? Number(given) : -1;
  const r = D.argue.reports[ri];
  if (!r) {
    missingView(
      h(
        'span',
        null,
        'No judged report ',
        cut(given, 80),
        ` in this report: its ${D.argue.reports.length} judged reports are numbered from 0. `,
      ),
      link({ argue: '' }, 'All judged reports'),
    );
    return;
  }
  const yes = (v) =>
    v === true
      ? h('span', { class: 'ok' }, 'yes')
      : v === false
        ? h('span', { class: 'bad' }, 'no')
        : h('span', { class: 'na' }, 'not judged');
  put(
    app,
    h('p', null, link({ argue: '' }, '← reports')),
    h('h2', null, `${r.topic}${r.title ? `: ${r.title}` : ''}`),
    h(
      'p',
      { class: 'meta' },
      `run ${r.run} · ${r.sentences.length} sentences${r.truncated ? ` (${r.truncated} cut by the length limit)` : ''} · ${r.failed} failed judgment(s)`,
    ),
    h('h3', null, 'Sentences'),
    h(
      'ol',
      { class: 'sentences' },
      r.sentences.map((s, si) =>
        h(
          'li',
          { id: `s-${si}` },
          h('p', { class: 'text' }, s.text),
          s.citations.length
            ? h(
                'ul',
                null,
                s.citations.map((c) =>
                  h(
                    'li',
                    null,
                    `[${c.doc}] attested: `,
                    yes(c.attested),
                    ' · relevant: ',
                    yes(c.relevant),
                    c.evidence ? h('blockquote', null, c.evidence) : null,
                    c.located === false
                      ? h('span', { class: 'warn' }, 'evidence quote not found in the document')
                      : null,
                  ),
                ),
              )
            : h('p', { class: 'hint' }, 'no citation', s.flags.length ? ` · ${s.flags.join(' · ')}` : ''),
          s.nuggets.length
            ? h(
                'p',
                null,
                'answers: ',
                s.nuggets.map((n) =>
                  h(
                    'span',
                    { class: 'nugget' },
                    link({ report: String(ri), nugget: String(n.n) }, r.nuggets[n.n].question),
                    n.answers.length ? ` → ${n.answers.join('; ')}` : '',
                    ' ',
                  ),
                ),
              )
            : null,
          s.failed.length
            ? h(
                'ul',
                { class: 'bad' },
                s.failed.map((f) => h('li', null, f)),
              )
            : null,
        ),
      ),
    ),
    h('h3', null, 'Nuggets'),
    h(
      'table',
      { class: 'claims' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['nugget', 'type', 'gold answers', 'answered by', 'met'].map((t) => h('th', null, t)),
        ),
      ),
      h(
        'tbody',
        null,
        r.nuggets.map((n, ni) =>
          h(
            'tr',
            { id: `n-${ni}` },
            h('td', null, n.question, n.unknown ? h('span', { class: 'warn' }, ' (not in the bank)') : null),
            h('td', null, n.aggregator, n.importance ? ` · importance ${n.importance}` : ''),
            h('td', null, n.answers.join('; ')),
            h(
              'td',
              null,
              n.by.length
                ? n.by.map((b) =>
                    h(
                      'div',
                      null,
                      link({ report: String(ri), sentence: String(b.s) }, `sentence ${b.s + 1}`),
                      b.answers.length ? ` → ${b.answers.join('; ')}` : '',
                    ),
                  )
                : h('span', { class: 'na' }, 'none'),
            ),
            h('td', { class: n.satisfied ? 'ok' : 'bad' }, n.satisfied ? 'yes' : 'no'),
          ),
        ),
      ),
    ),
  );
  const target = params.has('sentence')
    ? `s-${Number(params.get('sentence'))}`
    : params.has('nugget')
      ? `n-${Number(params.get('nugget'))}`
      : null;
  const el = target && document.getElementById(target);
  if (el) {
    el.classList.add('target');
    el.scrollIntoView({ block: 'center' });
  }
}
