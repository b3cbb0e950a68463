// The sample search page's script (served as a file: the page's CSP runs no inline script). It follows
// only the links the search response carries: each API link is shown as the same link on this page (its
// query string kept as it is), and the search box is a plain GET form. The server puts the site's name
// and highlight markers in the body's data attributes.
import { safeHref } from './sample-links.js';

(() => {
  const data = document.body.dataset;
  const site = data.site;
  const pagePath = location.pathname;
  const apiPath = `/api/sn/${encodeURIComponent(site)}/search`;
  const $ = (id) => document.getElementById(id);
  const esc = (s) =>
    String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const pageLink = (apiHref) => pagePath + (apiHref.indexOf('?') >= 0 ? apiHref.slice(apiHref.indexOf('?')) : '');
  const marks = [data.hlPre, data.hlPost];
  // Highlight markers come from the site; everything else in a value is text.
  const highlighted = (value) => {
    const text = esc(Array.isArray(value) ? value.join(', ') : value == null ? '' : value);
    if (!marks[0] || !marks[1]) return text;
    return text.split(esc(marks[0])).join('<mark>').split(esc(marks[1])).join('</mark>');
  };
  const link = (href, html, cls) =>
    `<a href="${esc(pageLink(href))}"${cls ? ` class="${cls}"` : ''} data-api="${esc(href)}">${html}</a>`;
  // A description is shown as one paragraph clamped to three lines: its own line breaks would spend them.
  const oneLine = (value) => (Array.isArray(value) ? value.join(' ') : String(value)).replace(/\s+/g, ' ').trim();
  // On a phone the facets wait behind the Filters button (the stylesheet hides them while it is closed).
  const showFilters = (open) => {
    $('facets').classList.toggle('open', open);
    $('filters-toggle').setAttribute('aria-expanded', String(open));
  };

  // A link built as elements, its text set as text: the spell check's texts are what a visitor typed.
  const linkTo = (apiHref, text) => {
    const a = document.createElement('a');
    a.href = pageLink(apiHref);
    a.dataset.api = apiHref;
    a.textContent = text;
    return a;
  };
  // widget.spellCheck: when the corrected text was searched (the site's "spell check fixes"), say so and link
  // back to the text as typed; otherwise a correction is offered as a link that searches it.
  const renderSpell = (spell) => {
    const box = $('spell');
    box.replaceChildren();
    if (spell?.correctedText && spell.corrected?.text) {
      if (spell.usingCorrectedText) {
        const shown = document.createElement('strong');
        shown.textContent = spell.corrected.text;
        box.append(
          'Showing results for ',
          shown,
          '. Search instead for ',
          linkTo(spell.original.link, spell.original.text),
          '.',
        );
      } else {
        box.append('Did you mean ', linkTo(spell.corrected.link, spell.corrected.text), '?');
      }
    }
    box.hidden = !box.firstChild;
  };

  // A range ("11–20 of 60 results") only when the results span pages: "1–1 of 1 results" says nothing.
  const summary = (ctx) => {
    const total = `${ctx.count} result${ctx.count === 1 ? '' : 's'}`;
    if (ctx.count === 0) return 'No results.';
    return ctx.pageEnd > 0 && (ctx.pageStart > 1 || ctx.pageEnd < ctx.count)
      ? `${ctx.pageStart}–${ctx.pageEnd} of ${total}`
      : total;
  };

  function render(r) {
    const ctx = r.queryContext;
    const fields = ctx.defaultFields || {};
    $('q').value = ctx.query.queryString === '*' ? '' : ctx.query.queryString;
    $('locale').value = ctx.query.locale;
    $('locales').innerHTML = (r.widget.locales || [])
      .map((l) => link(l.link, esc(l.locale), l.locale === ctx.query.locale ? 'current' : ''))
      .join('');
    const groups = (r.widget.facet || []).concat(r.widget.secondaryFacet || []);
    $('facets').innerHTML = groups
      .map(
        (g) =>
          '<section data-facet="' +
          esc(g.name) +
          '"><h2><span>' +
          esc(g.label.text) +
          '</span>' +
          (g.selectedFilterQueries?.length ? link(g.cleanUpLink, 'clear') : '') +
          '</h2><ul>' +
          g.facets
            .map(
              (f) =>
                `<li>${link(f.link, `<span>${esc(f.label)}</span><span class="count">${esc(f.count)}</span>`, f.selected ? 'selected' : '')}</li>`,
            )
            .join('') +
          '</ul></section>',
      )
      .join('');
    const toRemove = r.widget.facetToRemove?.facets || [];
    $('chips').innerHTML =
      toRemove.map((f) => link(f.link, `${esc(f.label)} ✕`, 'chip')).join('') +
      (toRemove.length ? link(r.widget.cleanUpFacets, 'Clear all', 'chip') : '');
    $('filters-toggle').hidden = groups.length === 0;
    $('filters-toggle').textContent = toRemove.length ? `Filters (${toRemove.length})` : 'Filters';
    $('summary').textContent = summary(ctx);
    renderSpell(r.widget.spellCheck);
    const docs = r.results?.document || [];
    $('results').innerHTML = docs
      .map((d) => {
        const title = d.fields[fields.title] != null ? d.fields[fields.title] : d.fields.id || '';
        const body = d.fields[fields.description] != null ? d.fields[fields.description] : d.fields[fields.text];
        const meta = (d.metadata || [])
          .map((m) => m.values.map((v) => link(v.link, `${esc(m.name)}: ${esc(v.label)}`)).join(''))
          .join('');
        const source = d.source ? safeHref(d.source) : null;
        return (
          '<article><h3>' +
          (source ? `<a href="${esc(source)}">${highlighted(title)}</a>` : highlighted(title)) +
          '</h3>' +
          (body != null ? `<p>${highlighted(oneLine(body).slice(0, 600))}</p>` : '') +
          '<div class="meta">' +
          meta +
          '</div></article>'
        );
      })
      .join('');
    // A single page has nothing to go to: the API still lists it (as CURRENT), the page shows no pager.
    const pages = r.pagination || [];
    $('pagination').hidden = !pages.some((p) => p.type !== 'CURRENT');
    $('pagination').innerHTML = pages
      .map((p) => link(p.href, esc(p.text), p.type === 'CURRENT' ? 'current' : ''))
      .join('');
  }

  async function load(apiHref, push) {
    const response = await fetch(apiHref, { headers: { accept: 'application/json' } });
    const body = await response.json();
    if (!response.ok) {
      $('results').innerHTML = `<div class="error">${esc(body.message || body.error)}</div>`;
      return;
    }
    if (push) history.pushState({ api: apiHref }, '', pageLink(apiHref));
    render(body);
    // A followed link (a page further down, a facet) starts the reader at the top of the new results.
    if (push && window.scrollY > 0) window.scrollTo(0, 0);
  }

  document.addEventListener('click', (event) => {
    const a = event.target.closest('a[data-api]');
    if (!a || event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    if (a.closest('#facets')) showFilters(false);
    load(a.getAttribute('data-api'), true);
  });
  $('filters-toggle').addEventListener('click', () => showFilters(!$('facets').classList.contains('open')));
  window.addEventListener('popstate', () => load(apiPath + location.search, false));
  load(apiPath + location.search, false);
})();
