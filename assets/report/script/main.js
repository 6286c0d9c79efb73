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
  routeNote.replaceChildren();
  routeNote.hidden = true;
  window.scrollTo(0, 0);
  if (render) render(params);
  else {
    // An anchor inside the overview (#leaderboard, #cost…) scrolls there; anything else is said.
    const target = view === 'overview' ? null : document.getElementById(view);
    if (target && overview.contains(target)) target.scrollIntoView();
    else if (view !== 'overview') {
      routeNote.hidden = false;
      put(
        routeNote,
        'The address names no view or section of this report: ',
        cut(view, 80),
        '. Showing the overview.',
      );
    }
  }
}
const routeNote = h('p', { class: 'bad route-note', id: 'route-note', hidden: true });
overview.before(routeNote);
window.addEventListener('hashchange', route);

document.documentElement.classList.add('js');
route();
