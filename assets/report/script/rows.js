// ---- rows ---------------------------------------------------------------------------------
const defaultMetric = metricById.has('citation_accuracy')
  ? 'citation_accuracy'
  : D.metrics[0]
    ? D.metrics[0].id
    : '';
const SORTS = [
  ['order', 'dataset order'],
  ['type', 'question type'],
  ['asc', 'metric, lowest first'],
  ['desc', 'metric, highest first'],
  ['spread', 'largest disagreement'],
];
const FILTER_KEYS = [
  'rows',
  'runs',
  'type',
  'domain',
  'metric',
  'below',
  'failed',
  'q',
  'sort',
  'page',
  'differ',
];
const distinctOf = (k) => [...new Set(D.questions.map((q) => q[k]))].sort();
const runIndex = (s) => (/^\d+$/.test(s) && Number(s) < D.runs.length ? Number(s) : null);
/**
 * The filters of the rows view read from the address. A part that is not understood is left out
 * (the view then shows more, never silently nothing) and said in `problems`, naming the part.
 */
function rowFilters(params) {
  const problems = [];
  const bad = (k, v, why) => problems.push([`${k}=${v}`, why]);
  const runsParam = params.get('runs');
  let runs = D.runs.map((_, i) => i);
  if (runsParam !== null) {
    const parts = runsParam.split('.').filter(Boolean);
    const known = parts.map(runIndex).filter((i) => i !== null);
    if (known.length < parts.length)
      bad('runs', runsParam, `runs are numbered 0 to ${D.runs.length - 1} and joined by "."`);
    if (known.length) runs = known;
  }
  const pick = (k, allowed, why) => {
    const v = params.get(k);
    if (v === null || v === '') return '';
    if (allowed.includes(v)) return v;
    bad(k, v, why);
    return '';
  };
  const type = pick('type', distinctOf('type'), 'no question has this type');
  const domain = pick('domain', distinctOf('domain'), 'no question has this domain');
  const metric =
    pick(
      'metric',
      D.metrics.map((m) => m.id),
      `not a metric of this report (${D.metrics.map((m) => m.id).join(', ') || 'none'})`,
    ) || defaultMetric;
  let below = params.get('below') || '';
  if (below !== '' && !Number.isFinite(Number(below))) {
    bad('below', below, 'the threshold is not a number');
    below = '';
  }
  const failedParam = params.get('failed');
  if (failedParam !== null && failedParam !== '1' && failedParam !== '')
    bad('failed', failedParam, 'use failed=1');
  const sort = pick(
    'sort',
    SORTS.map(([v]) => v),
    `sorts are ${SORTS.map(([v]) => v).join(', ')}`,
  );
  const pageParam = params.get('page');
  if (pageParam !== null && !/^[1-9]\d*$/.test(pageParam)) bad('page', pageParam, 'not a page number');
  let differ = null;
  const differParam = params.get('differ');
  if (differParam !== null && differParam !== '') {
    const pair = differParam.split('.').map(runIndex);
    if (pair.length === 2 && pair[0] !== null && pair[1] !== null && pair[0] !== pair[1])
      differ = pair.sort((a, b) => a - b);
    else bad('differ', differParam, 'name two different runs, e.g. differ=0.1');
  }
  for (const k of new Set(params.keys()))
    if (!FILTER_KEYS.includes(k)) bad(k, params.get(k), 'not a filter of the rows view');
  return {
    runs: new Set(runs),
    type,
    domain,
    metric,
    below,
    failed: failedParam === '1',
    q: params.get('q') || '',
    sort: sort || 'order',
    page: Math.max(1, Number(params.get('page')) || 1),
    differ,
    problems,
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
  if (f.differ) p.differ = f.differ.join('.');
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
  if (f.differ && !differs(q, f.differ, f.metric)) return false;
  if (f.q && !questionText(q).includes(f.q.toLowerCase())) return false;
  return true;
}
/** Both runs scored the question on the metric, with different values. */
function differs(q, [i, j], metric) {
  const value = (r) => {
    const ai = byQuestion[q].find((x) => D.answers[x].r === r);
    const v = ai === undefined ? undefined : D.answers[ai].scores[metric];
    return typeof v === 'number' ? v : null;
  };
  const [a, b] = [value(i), value(j)];
  return a !== null && b !== null && Math.abs(a - b) > 1e-9;
}
// Sort keys are rounded to 1e-9: scores are stored to a few decimals, so 0.6 − 0.4 and 0.5 − 0.3
// are the same disagreement (their float differences are not), and ties keep dataset order.
const settle = (x) => Math.round(x * 1e9) / 1e9;
function sortKey(q, f) {
  const values = visibleAnswers(q, f)
    .map((ai) => D.answers[ai].scores[f.metric])
    .filter((v) => typeof v === 'number');
  if (f.sort === 'spread') return values.length > 1 ? -settle(Math.max(...values) - Math.min(...values)) : 1;
  if (values.length === 0) return Number.POSITIVE_INFINITY;
  return settle(f.sort === 'desc' ? -Math.max(...values) : Math.min(...values));
}
function filteredQuestions(f) {
  const list = D.questions.map((_, i) => i).filter((q) => matches(q, f));
  if (f.sort === 'type') list.sort((a, b) => D.questions[a].type.localeCompare(D.questions[b].type) || a - b);
  else if (f.sort !== 'order') {
    const keys = new Map(list.map((q) => [q, sortKey(q, f)]));
    // Infinity − Infinity is NaN: compared by order, not by subtraction.
    list.sort((a, b) => {
      const [x, y] = [keys.get(a), keys.get(b)];
      return x < y ? -1 : x > y ? 1 : a - b;
    });
  }
  return list;
}

function rowsView(params) {
  const f = rowFilters(params);
  const list = h('div', { id: 'row-list' });
  const problems = f.problems.length
    ? h(
        'div',
        { class: 'bad', id: 'filter-problems' },
        h('p', null, 'Part of the address was not understood, and is ignored:'),
        h(
          'ul',
          null,
          f.problems.map(([part, why]) => h('li', null, cut(part, 80), ` — ${why}.`)),
        ),
      )
    : null;
  const update = () => {
    history.replaceState(null, '', `#${new URLSearchParams(filterParams(f))}`);
    // The address now holds only what the filters show.
    if (problems) problems.remove();
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
  const distinct = distinctOf;
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
  const setDiffer = (v) => {
    f.differ = v ? v.split('.').map(Number) : null;
    if (f.differ) for (const r of f.differ) f.runs.add(r);
    f.page = 1;
    update();
    for (const box of app.querySelectorAll('input[data-run]'))
      box.checked = f.runs.has(Number(box.getAttribute('data-run')));
  };
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
      D.runs.length > 1
        ? select('differ', differOptions(), f.differ ? f.differ.join('.') : '', setDiffer)
        : null,
      select('sort', SORTS, f.sort, set('sort')),
    ),
    problems,
    list,
  );
  app.querySelector('form').addEventListener('submit', (ev) => ev.preventDefault());
  renderRowList(list, f);
}

/** Pairs of runs for the "differ" filter: questions where the two runs' scores differ. */
function differOptions() {
  const out = [['', 'any']];
  D.runs.forEach((a, i) => {
    D.runs.forEach((b, j) => {
      if (i < j) out.push([`${i}.${j}`, `${a.label} ≠ ${b.label}`]);
    });
  });
  return out;
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
        h('td', null, link({ row: qq.id }, cut(qq.id, 60))),
        h('td', null, cut(qq.type, 60)),
        h('td', null, cut(qq.domain, 60)),
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
