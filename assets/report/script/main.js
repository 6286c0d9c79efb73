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

document.documentElement.classList.add('js');
route();
