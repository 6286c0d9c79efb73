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
  if (f.sort === 'type') list.sort((a, b) => D.questions[a].type.localeCompare(D.questions[b].type) || a - b);
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
    rowsTable(
      [
        'row',
        'type',
        'domain',
        'question',
        metricById.has(f.metric) ? metricById.get(f.metric).label : 'scores',
      ],
      body,
    ),
    shown.length < all.length ? more : null,
  );
}
