// citegeist report viewer. Renders the rows, papers, VETSCORE and ARGUE views from the JSON
// embedded in this page (element #report-data). Hand-written, no dependencies, no network.
// Safety: every text from the data enters the DOM as a text node (never as markup), attributes are
// set one by one, and every link is an internal '#…' fragment built here from indexes and
// URL-encoded ids, so no value from the data can become markup, a handler or a script URL.
// The files of assets/report/script/ share one scope: src/report/report-assets.ts joins them, in
// order, inside one function (core first, main last).
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
/**
 * An id or label from the data, which may be any length (a 100,000-character row id must not make
 * a table 1.4 million px wide): over `max` characters it is cut with an ellipsis, the full text on
 * hover.
 */
function cut(text, max = 120) {
  const s = String(text);
  return s.length > max ? h('span', { class: 'cut', title: s }, `${s.slice(0, max)}…`) : s;
}
/** What a view shows when the address names something the report does not hold. */
function missingView(what, ...more) {
  put(app, h('p', { class: 'bad', id: 'missing' }, what), ...more);
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
  // Option texts come from the data (types, domains, labels): cut, so no select is page-wide.
  for (const [v, text] of options)
    s.append(
      h('option', { value: v, selected: v === value }, text.length > 60 ? `${text.slice(0, 60)}…` : text),
    );
  s.addEventListener('change', () => onChange(s.value));
  return h('label', null, `${label} `, s);
}
/** A setter for one key of the location hash (`''` or false removes it, true sets '1'). */
const setHashParam = (k) => (v) => {
  const p = new URLSearchParams(location.hash.slice(1));
  if (v === '' || v === false) p.delete(k);
  else p.set(k, v === true ? '1' : v);
  location.hash = p.toString();
};
/** The "failed … only" checkbox of a list view, kept in the hash as `failed=1`. */
function failedOnlyBox(checked) {
  const box = h('input', { type: 'checkbox', checked });
  box.addEventListener('change', () => setHashParam('failed')(box.checked));
  return box;
}
/**
 * A list view with a run filter and a failed-only box (the ARGUE and VETSCORE lists): heading,
 * filters, "n of m" and a table of `headers` over `rows` (each an array of <td>s).
 */
function filteredList({ title, runParam, runs, run, failedOnly, failedLabel, count, headers, rows }) {
  put(
    app,
    h('h2', null, title),
    h(
      'form',
      { class: 'filters' },
      select('run', [['', 'all'], ...runs.map((r) => [r, r])], run, setHashParam(runParam)),
      h('label', { class: 'check' }, failedOnlyBox(failedOnly), ` ${failedLabel}`),
    ),
    h('p', { class: 'count' }, count),
    rowsTable(
      headers,
      h(
        'tbody',
        null,
        rows.map((cells) => h('tr', null, ...cells)),
      ),
    ),
  );
}
/** A list view's table: a header row of `headers` (texts) over `body` (a <tbody>). */
function rowsTable(headers, body) {
  return h(
    'table',
    { class: 'rows' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headers.map((t) => h('th', null, t)),
      ),
    ),
    body,
  );
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
