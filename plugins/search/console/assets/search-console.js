// Shared by the search console's site pages: the site a page is about. Tables and forms come from the kit's
// console-tables.js and console-forms.js, everything else from its console.js.
import { $, ApiError, api } from './console.js';

/** The site of a site page: its id from the page, its API path, and its record once loaded. */
export function sitePage() {
  const id = $('site-head').dataset.siteId;
  const path = `/api/sn/${encodeURIComponent(id)}`;
  return {
    id,
    path,
    /** Load the site and show its name and sample-page link in the page head. */
    async load() {
      const site = await api('GET', path);
      $('site-name').textContent = site.name;
      document.title = `${site.name} · ${document.title}`;
      const sample = $('sample-link');
      sample.href = `/sn/${encodeURIComponent(site.name)}`;
      sample.hidden = false;
      return site;
    },
  };
}

/** A site page about a site that does not exist: say so and hide the tabs' content. */
export function siteMissing(error) {
  if (!(error instanceof ApiError) || error.status !== 404) return false;
  for (const node of document.querySelectorAll('main > :not(.page-head):not(#error)')) node.hidden = true;
  return true;
}
