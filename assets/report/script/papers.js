// ---- papers -------------------------------------------------------------------------------
function papersView() {
  put(
    app,
    h('h2', null, 'Papers'),
    D.papers.length === 0
      ? h('p', { class: 'hint' }, 'No paper text in this report (give --corpus or --papers).')
      : null,
    h(
      'ul',
      { class: 'papers' },
      D.papers.map((p, i) =>
        h(
          'li',
          null,
          link({ paper: String(i) }, p.title ? cut(p.title, 200) : cut(p.id)),
          ' · ',
          cut(p.id, 80),
          ` · ${p.marks.length} highlighted span(s)${p.excerpted ? ' · excerpts' : ''}`,
        ),
      ),
    ),
  );
}

const MARK_NAMES = {
  c: 'cited quote',
  p: 'prefix-only quote',
  g: 'gold evidence',
  n: 'nearest passage to a quote not found',
};

function paperText(p, paperIndex) {
  const out = h('div', { class: 'paper-text' });
  const starts = new Map(p.pages.map(([n, s]) => [s, n]));
  const pageAt = (o) => {
    const page = p.pages.find(([, s, e]) => o >= s && o < e);
    return page ? page[0] : null;
  };
  let previousEnd = 0;
  for (const [offset, text] of p.parts) {
    if (offset > previousEnd)
      out.append(h('div', { class: 'gap' }, `… ${offset - previousEnd} characters left out …`));
    const end = offset + text.length;
    previousEnd = end;
    const cuts = new Set([offset, end]);
    for (const [s] of p.pages) if (s > offset && s < end) cuts.add(s);
    const inside = [];
    p.marks.forEach(([s, e], m) => {
      if (e > offset && s < end) {
        inside.push(m);
        cuts.add(Math.max(s, offset));
        cuts.add(Math.min(e, end));
      }
    });
    const sorted = [...cuts].sort((a, b) => a - b);
    const first = pageAt(offset);
    if (first !== null && !starts.has(offset))
      out.append(h('span', { class: 'page-break' }, `page ${first}`));
    const opened = new Set();
    for (let i = 0; i + 1 < sorted.length; i++) {
      const [a, b] = [sorted[i], sorted[i + 1]];
      if (starts.has(a)) out.append(h('span', { class: 'page-break' }, `page ${starts.get(a)}`));
      const piece = text.slice(a - offset, b - offset);
      const covering = inside.filter((m) => p.marks[m][0] <= a && p.marks[m][1] >= b);
      if (covering.length === 0) {
        out.append(piece);
        continue;
      }
      const kinds = [...new Set(covering.map((m) => p.marks[m][2]))];
      const el = h(
        'mark',
        {
          class: `mk ${kinds.join(' ')}`,
          title: kinds.map((k) => MARK_NAMES[k]).join(', '),
          'data-marks': covering.join(' '),
        },
        piece,
      );
      for (const m of covering) {
        if (opened.has(m)) continue;
        opened.add(m);
        if (!el.id) el.id = `m-${m}`;
        else el.prepend(h('span', { id: `m-${m}`, class: 'anchor' }));
      }
      out.append(el);
    }
  }
  if (p.parts.length && previousEnd < p.length)
    out.append(h('div', { class: 'gap' }, `… ${p.length - previousEnd} characters left out …`));
  out.addEventListener('click', (ev) => {
    const mark = ev.target.closest('mark');
    if (mark)
      location.hash = new URLSearchParams({
        paper: String(paperIndex),
        mark: mark.getAttribute('data-marks').split(' ')[0],
      }).toString();
  });
  return out;
}

function citedByPanel(paperIndex, m) {
  const uses = citedBy[paperIndex].get(m) || [];
  const mark = D.papers[paperIndex].marks[m];
  return h(
    'aside',
    { class: 'cited-by', id: 'cited-by' },
    h('strong', null, `Highlighted: ${MARK_NAMES[mark[2]]}`),
    uses.length
      ? h(
          'ul',
          null,
          uses.map(([ai, ci]) => {
            const a = D.answers[ai];
            const c = a.citations[ci];
            return h(
              'li',
              null,
              runName(a.r),
              ' ',
              link(
                { row: D.questions[a.q].id, run: String(a.r), cite: c.key },
                cut(D.questions[a.q].id, 60),
                ` [${c.key}]`,
              ),
              c.m === m ? '' : ' (nearest passage to a quote not found)',
            );
          }),
        )
      : h(
          'p',
          null,
          'Gold evidence of: ',
          D.questions
            .filter((q) => q.p === paperIndex && q.groups.some((g) => g.alts.some((x) => x.m === m)))
            .map((q) => [link({ row: q.id }, cut(q.id, 60)), ' ']),
        ),
  );
}

function paperView(params) {
  const given = params.get('paper');
  const i = /^\d+$/.test(given) ? Number(given) : -1;
  const p = D.papers[i];
  if (!p) {
    missingView(
      h(
        'span',
        null,
        'No paper ',
        cut(given, 80),
        D.papers.length
          ? ` in this report: its papers are numbered 0 to ${D.papers.length - 1}. `
          : ' in this report: it holds no paper text (give --corpus or --papers). ',
      ),
      link({ papers: '' }, 'All papers'),
    );
    return;
  }
  const m = params.has('mark') ? Number(params.get('mark')) : null;
  put(
    app,
    h('p', null, link({ papers: '' }, '← papers')),
    h('h2', null, p.title || cut(p.id)),
    h(
      'p',
      { class: 'meta' },
      cut(p.id, 80),
      ` · ${p.length.toLocaleString('en')} characters${p.pages.length ? ` · ${p.pages.length} pages` : ''}`,
    ),
    p.excerpted
      ? h(
          'p',
          { class: 'hint' },
          p.parts.length
            ? 'Excerpts: the passages around each highlight (the report was built without whole paper texts).'
            : 'The paper text is not embedded in this report.',
        )
      : null,
    h(
      'p',
      { class: 'legend' },
      Object.entries(MARK_NAMES).map(([k, name]) => h('mark', { class: `mk ${k}` }, name)),
      ' — click a highlight to see who cited it.',
    ),
    h(
      'div',
      { class: m !== null && p.marks[m] ? 'paper-layout with-panel' : 'paper-layout' },
      m !== null && p.marks[m] ? citedByPanel(i, m) : null,
      paperText(p, i),
    ),
  );
  if (m !== null) {
    const el = document.getElementById(`m-${m}`);
    if (el) {
      const mark = el.closest('mark') || el;
      mark.classList.add('target');
      mark.setAttribute('tabindex', '-1');
      mark.scrollIntoView({ block: 'center' });
      mark.focus({ preventScroll: true });
    }
  }
}
