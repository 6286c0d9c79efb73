// citegeist report viewer. Renders the rows, papers, VETSCORE and ARGUE views from the JSON
// embedded in this page (element #report-data). Hand-written, no dependencies, no network.
// Safety: every text from the data enters the DOM as a text node (never as markup), attributes are
// set one by one, and every link is an internal '#…' fragment built here from indexes and
// URL-encoded ids, so no value from the data can become markup, a handler or a script URL.
(() => {
  const D = expand(JSON.parse(document.getElementById('report-data').textContent));

  // Restores the fields the report leaves out at their default value (src/report/compact-data.ts).
  function expand(d) {
    for (const a of d.answers) {
      a.citations = a.citations || [];
      for (const k of ['error', 'latency', 'cost', 'judge', 'vet']) if (!(k in a)) a[k] = null;
      a.cached = a.cached === true;
      a.status = a.status || {};
      a.errors = a.errors || {};
      if (!('nCitations' in a)) a.nCitations = a.citations.length;
      for (const c of a.citations) {
        if (!('strict' in c)) c.strict = c.rule;
        c.prefixOnly = c.prefixOnly === true;
        for (const k of ['m', 'page', 'section', 'near', 'gold']) if (!(k in c)) c[k] = null;
      }
    }
    return d;
  }
  const app = document.getElementById('app');
  const overview = document.getElementById('overview');
  const SVG = 'http://www.w3.org/2000/svg';
  const PAGE = 100;

  // ---- DOM helpers --------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) continue;
      if (k === 'href' && !String(v).startsWith('#')) continue;
      el.setAttribute(k, v === true ? '' : String(v));
    }
    return put(el, ...children);
  }
  // Appends children, skipping null/undefined/false (DOM append would write them as text).
  function put(el, ...children) {
    for (const c of children.flat(4)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }
  const link = (params, ...children) => h('a', { href: `#${new URLSearchParams(params)}` }, ...children);
  const fmt = (x, digits = 3) => (typeof x === 'number' ? x.toFixed(digits) : 'n/a');
  function swatch(colour) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'swatch');
    svg.setAttribute('width', '10');
    svg.setAttribute('height', '10');
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('class', `c${colour % 8}`);
    rect.setAttribute('width', '10');
    rect.setAttribute('height', '10');
    svg.append(rect);
    return svg;
  }
  const runName = (r) => h('span', { class: 'run' }, swatch(D.runs[r].colour), ' ', D.runs[r].label);
  function select(label, options, value, onChange) {
    const s = h('select', { 'aria-label': label });
    for (const [v, text] of options) s.append(h('option', { value: v, selected: v === value }, text));
    s.addEventListener('change', () => onChange(s.value));
    return h('label', null, `${label} `, s);
  }
  function debounce(fn, ms) {
    let t = 0;
    return (...a) => {
      clearTimeout(t);
      t = setTimeout(() => fn(...a), ms);
    };
  }

  // ---- indexes ------------------------------------------------------------------------------
  const byQuestion = D.questions.map(() => []);
  D.answers.forEach((a, i) => {
    byQuestion[a.q].push(i);
  });
  const questionById = new Map(D.questions.map((q, i) => [q.id, i]));
  const citedBy = D.papers.map(() => new Map());
  D.answers.forEach((a, ai) => {
    const p = D.questions[a.q].p;
    if (p === null) return;
    a.citations.forEach((c, ci) => {
      for (const m of [c.m, c.near?.m]) {
        if (m === null || m === undefined) continue;
        if (!citedBy[p].has(m)) citedBy[p].set(m, []);
        citedBy[p].get(m).push([ai, ci]);
      }
    });
  });
  const metricById = new Map(D.metrics.map((m) => [m.id, m]));
  const failedAnswer = (a) =>
    Boolean(a.error) ||
    Object.values(a.status).includes('failed') ||
    (a.vet !== null && D.vetscore.answers[a.vet].status === 'failed');
  let searchText = null;
  function questionText(q) {
    if (!searchText) {
      searchText = D.questions.map((qq, i) =>
        [qq.id, qq.question, qq.expected, ...byQuestion[i].map((ai) => D.answers[ai].text || '')]
          .join('\n')
          .toLowerCase(),
      );
    }
    return searchText[q];
  }

  // ---- routing ------------------------------------------------------------------------------
  function route() {
    const params = new URLSearchParams(location.hash.slice(1));
    const view = [...params.keys()][0] || 'overview';
    for (const a of document.querySelectorAll('#tabs a')) {
      const tab = a.getAttribute('data-tab');
      const parent = { row: 'rows', paper: 'papers', vet: 'vetscore', report: 'argue' };
      const on = tab === view || (Object.hasOwn(parent, view) && parent[view] === tab);
      if (on) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    const views = {
      rows: rowsView,
      row: rowView,
      papers: papersView,
      paper: paperView,
      vetscore: vetListView,
      vet: vetView,
      argue: argueListView,
      report: argueView,
    };
    const render = Object.hasOwn(views, view) ? views[view] : null;
    overview.hidden = Boolean(render);
    app.hidden = !render;
    app.replaceChildren();
    window.scrollTo(0, 0);
    if (render) render(params);
    else {
      // An anchor inside the overview (#leaderboard, #cost…) scrolls there.
      const target = view === 'overview' ? null : document.getElementById(view);
      if (target && overview.contains(target)) target.scrollIntoView();
    }
  }
  window.addEventListener('hashchange', route);

  // ---- rows ---------------------------------------------------------------------------------
  const defaultMetric = metricById.has('citation_accuracy')
    ? 'citation_accuracy'
    : D.metrics[0]
      ? D.metrics[0].id
      : '';
  function rowFilters(params) {
    const runs = params.get('runs');
    return {
      runs: new Set(runs === null ? D.runs.map((_, i) => i) : runs.split('.').filter(Boolean).map(Number)),
      type: params.get('type') || '',
      domain: params.get('domain') || '',
      metric: metricById.has(params.get('metric')) ? params.get('metric') : defaultMetric,
      below: params.get('below') || '',
      failed: params.get('failed') === '1',
      q: params.get('q') || '',
      sort: params.get('sort') || 'order',
      page: Math.max(1, Number(params.get('page')) || 1),
    };
  }
  function filterParams(f) {
    const p = { rows: '' };
    if (f.runs.size !== D.runs.length) p.runs = [...f.runs].join('.');
    for (const k of ['type', 'domain', 'below', 'q']) if (f[k]) p[k] = f[k];
    if (f.metric !== defaultMetric) p.metric = f.metric;
    if (f.failed) p.failed = '1';
    if (f.sort !== 'order') p.sort = f.sort;
    if (f.page > 1) p.page = String(f.page);
    return p;
  }
  function visibleAnswers(q, f) {
    return byQuestion[q].filter((ai) => f.runs.has(D.answers[ai].r));
  }
  function matches(q, f) {
    const qq = D.questions[q];
    if (f.type && qq.type !== f.type) return false;
    if (f.domain && qq.domain !== f.domain) return false;
    const answers = visibleAnswers(q, f);
    if (answers.length === 0) return false;
    if (f.below !== '') {
      const t = Number(f.below);
      if (
        !answers.some(
          (ai) => typeof D.answers[ai].scores[f.metric] === 'number' && D.answers[ai].scores[f.metric] < t,
        )
      )
        return false;
    }
    if (f.failed && !answers.some((ai) => failedAnswer(D.answers[ai]))) return false;
    if (f.q && !questionText(q).includes(f.q.toLowerCase())) return false;
    return true;
  }
  function sortKey(q, f) {
    const values = visibleAnswers(q, f)
      .map((ai) => D.answers[ai].scores[f.metric])
      .filter((v) => typeof v === 'number');
    if (f.sort === 'spread') return values.length > 1 ? -(Math.max(...values) - Math.min(...values)) : 1;
    if (values.length === 0) return Number.POSITIVE_INFINITY;
    return f.sort === 'desc' ? -Math.max(...values) : Math.min(...values);
  }
  function filteredQuestions(f) {
    const list = D.questions.map((_, i) => i).filter((q) => matches(q, f));
    if (f.sort === 'type')
      list.sort((a, b) => D.questions[a].type.localeCompare(D.questions[b].type) || a - b);
    else if (f.sort !== 'order') list.sort((a, b) => sortKey(a, f) - sortKey(b, f) || a - b);
    return list;
  }

  function rowsView(params) {
    const f = rowFilters(params);
    const list = h('div', { id: 'row-list' });
    const update = () => {
      history.replaceState(null, '', `#${new URLSearchParams(filterParams(f))}`);
      renderRowList(list, f);
    };
    const set = (k) => (v) => {
      f[k] = v;
      f.page = 1;
      update();
    };
    const runBoxes = D.runs.map((r, i) => {
      const box = h('input', { type: 'checkbox', checked: f.runs.has(i), 'data-run': i });
      box.addEventListener('change', () => {
        if (box.checked) f.runs.add(i);
        else f.runs.delete(i);
        f.page = 1;
        update();
      });
      return h('label', { class: 'check' }, box, ' ', swatch(r.colour), ' ', r.label);
    });
    const distinct = (k) => [...new Set(D.questions.map((q) => q[k]))].sort();
    const below = h('input', {
      type: 'number',
      step: '0.05',
      value: f.below,
      'aria-label': 'threshold',
      class: 'narrow',
    });
    below.addEventListener(
      'input',
      debounce(() => set('below')(below.value), 200),
    );
    const failed = h('input', { type: 'checkbox', checked: f.failed, id: 'f-failed' });
    failed.addEventListener('change', () => set('failed')(failed.checked));
    const search = h('input', {
      type: 'search',
      value: f.q,
      placeholder: 'question, answer or row id',
      'aria-label': 'search',
    });
    search.addEventListener(
      'input',
      debounce(() => set('q')(search.value.trim()), 200),
    );
    const metricOptions = D.metrics.map((m) => [m.id, m.label]);
    put(
      app,
      h('h2', null, 'Rows'),
      h(
        'form',
        { class: 'filters', role: 'search' },
        D.runs.length > 1 ? h('fieldset', null, h('legend', null, 'runs'), runBoxes) : null,
        select('type', [['', 'all'], ...distinct('type').map((t) => [t, t])], f.type, set('type')),
        select(
          'domain',
          [['', 'all'], ...distinct('domain').map((t) => [t, t || '(none)'])],
          f.domain,
          set('domain'),
        ),
        metricOptions.length ? select('metric', metricOptions, f.metric, set('metric')) : null,
        metricOptions.length ? h('label', null, 'below ', below) : null,
        h('label', { class: 'check' }, failed, ' failed only'),
        h('label', null, 'search ', search),
        select(
          'sort',
          [
            ['order', 'dataset order'],
            ['type', 'question type'],
            ['asc', 'metric, lowest first'],
            ['desc', 'metric, highest first'],
            ['spread', 'largest disagreement'],
          ],
          f.sort,
          set('sort'),
        ),
      ),
      list,
    );
    app.querySelector('form').addEventListener('submit', (ev) => ev.preventDefault());
    renderRowList(list, f);
  }

  function scoreChip(a, metric) {
    const v = a.scores[metric];
    const st = a.status[metric];
    const m = metricById.get(metric);
    const text =
      typeof v === 'number' ? fmt(v, m && m.range[1] > 1 ? 0 : 2) : st === 'failed' ? 'failed' : 'n/a';
    const cls = st === 'failed' || a.error ? 'chip bad' : typeof v !== 'number' ? 'chip na' : 'chip';
    return h(
      'span',
      { class: cls, title: `${D.runs[a.r].label}: ${text}` },
      swatch(D.runs[a.r].colour),
      ' ',
      text,
    );
  }

  function renderRowList(list, f) {
    const all = filteredQuestions(f);
    const shown = all.slice(0, f.page * PAGE);
    const body = h('tbody');
    for (const q of shown) {
      const qq = D.questions[q];
      body.append(
        h(
          'tr',
          { 'data-row': qq.id },
          h('td', null, link({ row: qq.id }, qq.id)),
          h('td', null, qq.type),
          h('td', null, qq.domain),
          h('td', { class: 'qtext' }, qq.question || '(question not in the dataset)'),
          h(
            'td',
            { class: 'chips' },
            visibleAnswers(q, f).map((ai) => scoreChip(D.answers[ai], f.metric)),
          ),
        ),
      );
    }
    const more = h('button', { type: 'button' }, `show ${Math.min(PAGE, all.length - shown.length)} more`);
    more.addEventListener('click', () => {
      f.page++;
      history.replaceState(null, '', `#${new URLSearchParams(filterParams(f))}`);
      renderRowList(list, f);
    });
    list.replaceChildren();
    put(
      list,
      h('p', { class: 'count', id: 'row-count' }, `${all.length} of ${D.questions.length} questions`),
      h(
        'table',
        { class: 'rows' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'row'),
            h('th', null, 'type'),
            h('th', null, 'domain'),
            h('th', null, 'question'),
            h('th', null, metricById.has(f.metric) ? metricById.get(f.metric).label : 'scores'),
          ),
        ),
        body,
      ),
      shown.length < all.length ? more : null,
    );
  }

  // ---- one row ------------------------------------------------------------------------------
  function paperLink(p, m, text) {
    return m === null || m === undefined ? null : link({ paper: String(p), mark: String(m) }, text);
  }

  function rowView(params) {
    const q = questionById.get(params.get('row'));
    if (q === undefined) {
      put(
        app,
        h('p', { class: 'bad' }, 'No row with this id in the report. '),
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
      h('h2', { class: 'question' }, qq.question || qq.id),
      h(
        'p',
        { class: 'meta' },
        `${qq.id} · ${qq.type}${qq.domain ? ` · ${qq.domain}` : ''} · paper `,
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
      }
    }
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
      { class: 'cite' },
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
        : h('div', { class: 'text answer-text' }, a.text),
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
            link({ paper: String(i) }, p.title || p.id),
            ` · ${p.id} · ${p.marks.length} highlighted span(s)${p.excerpted ? ' · excerpts' : ''}`,
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
                link({ row: D.questions[a.q].id, run: String(a.r) }, `${D.questions[a.q].id} [${c.key}]`),
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
              .map((q) => link({ row: q.id }, q.id, ' ')),
          ),
    );
  }

  function paperView(params) {
    const i = Number(params.get('paper'));
    const p = D.papers[i];
    if (!p) {
      put(app, h('p', { class: 'bad' }, 'No such paper in the report.'));
      return;
    }
    const m = params.has('mark') ? Number(params.get('mark')) : null;
    put(
      app,
      h('p', null, link({ papers: '' }, '← papers')),
      h('h2', null, p.title || p.id),
      h(
        'p',
        { class: 'meta' },
        `${p.id} · ${p.length.toLocaleString('en')} characters${p.pages.length ? ` · ${p.pages.length} pages` : ''}`,
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
      m !== null && p.marks[m] ? citedByPanel(i, m) : null,
      paperText(p, i),
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

  function vetListView(params) {
    const label = params.get('label') || '';
    const failedOnly = params.get('failed') === '1';
    const labels = [...new Set(D.vetscore.answers.map((a) => a.label))];
    const go = (k) => (v) => {
      const p = new URLSearchParams(location.hash.slice(1));
      if (v === '' || v === false) p.delete(k);
      else p.set(k, v === true ? '1' : v);
      location.hash = p.toString();
    };
    const failed = h('input', { type: 'checkbox', checked: failedOnly });
    failed.addEventListener('change', () => go('failed')(failed.checked));
    const list = D.vetscore.answers
      .map((a, i) => [a, i])
      .filter(
        ([a]) =>
          (!label || a.label === label) &&
          (!failedOnly ||
            a.status === 'failed' ||
            a.segments.some((s) => s.claims.some((c) => c.status === 'failed'))),
      );
    put(
      app,
      h('h2', null, 'VETSCORE answers'),
      h(
        'form',
        { class: 'filters' },
        select('run', [['', 'all'], ...labels.map((l) => [l, l])], label, go('label')),
        h('label', { class: 'check' }, failed, ' failed only'),
      ),
      h('p', { class: 'count' }, `${list.length} of ${D.vetscore.answers.length} answers`),
      h(
        'table',
        { class: 'rows' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['answer', 'run', 'score', 'status', 'claims', 'not supported'].map((t) => h('th', null, t)),
          ),
        ),
        h(
          'tbody',
          null,
          list.map(([a, i]) => {
            const claims = a.segments.flatMap((s) => s.claims);
            return h(
              'tr',
              null,
              h('td', null, link({ vet: String(i) }, a.id)),
              h('td', null, a.label),
              h('td', { class: 'num' }, fmt(a.score)),
              h('td', { class: a.status === 'failed' ? 'bad' : '' }, a.status),
              h('td', { class: 'num' }, String(claims.length)),
              h('td', { class: 'num' }, String(claims.filter((c) => c.v === 0).length)),
            );
          }),
        ),
      ),
    );
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
    const v = D.vetscore?.answers[Number(params.get('vet'))];
    if (!v) {
      put(app, h('p', { class: 'bad' }, 'No such VETSCORE answer.'));
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
      h('h2', null, v.question || v.id),
      h(
        'p',
        { class: 'meta' },
        `${v.id} · ${v.label} · score ${fmt(v.score)} (${v.status})${v.p === null ? '' : ` · p = ${v.p}`}${v.judges ? ` · ${v.judges}` : ''}`,
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
            `Segment ${i + 1}`,
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

  // ---- ARGUE --------------------------------------------------------------------------------
  function argueListView(params) {
    const run = params.get('run') || '';
    const failedOnly = params.get('failed') === '1';
    const runs = [...new Set(D.argue.reports.map((r) => r.run))];
    const go = (k) => (v) => {
      const p = new URLSearchParams(location.hash.slice(1));
      if (v === '' || v === false) p.delete(k);
      else p.set(k, v === true ? '1' : v);
      location.hash = p.toString();
    };
    const failed = h('input', { type: 'checkbox', checked: failedOnly });
    failed.addEventListener('change', () => go('failed')(failed.checked));
    const list = D.argue.reports
      .map((r, i) => [r, i])
      .filter(([r]) => (!run || r.run === run) && (!failedOnly || r.failed > 0));
    put(
      app,
      h('h2', null, 'Judged reports'),
      h(
        'form',
        { class: 'filters' },
        select('run', [['', 'all'], ...runs.map((r) => [r, r])], run, go('run')),
        h('label', { class: 'check' }, failed, ' failed judgments only'),
      ),
      h(
        'table',
        { class: 'rows' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['topic', 'run', 'sentences', 'nuggets met', 'failed judgments'].map((t) => h('th', null, t)),
          ),
        ),
        h(
          'tbody',
          null,
          list.map(([r, i]) =>
            h(
              'tr',
              null,
              h('td', null, link({ report: String(i) }, r.topic)),
              h('td', null, r.run),
              h('td', { class: 'num' }, String(r.sentences.length)),
              h(
                'td',
                { class: 'num' },
                `${r.nuggets.filter((n) => n.satisfied).length} of ${r.nuggets.filter((n) => !n.unknown).length}`,
              ),
              h('td', { class: r.failed ? 'num bad' : 'num' }, String(r.failed)),
            ),
          ),
        ),
      ),
    );
  }

  function argueView(params) {
    const ri = Number(params.get('report'));
    const r = D.argue?.reports[ri];
    if (!r) {
      put(app, h('p', { class: 'bad' }, 'No such report.'));
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
              h(
                'td',
                null,
                n.question,
                n.unknown ? h('span', { class: 'warn' }, ' (not in the bank)') : null,
              ),
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

  document.documentElement.classList.add('js');
  route();
})();
