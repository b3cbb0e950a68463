// Shared by every console's page scripts (the runtime's console kit, served as /console/assets/console.js):
// the admin API client (session cookie + CSRF token), DOM building without innerHTML for data, messages,
// dialogs, small formatters, the navigation menu on small screens, and navigation entries shown only when
// the API they need is served.

const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the service's JSON API as the signed-in administrator; a lost session goes back to sign-in. */
export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'the service did not answer; check that it is running and try again');
  }
  if (response.status === 401) {
    location.assign(`/console/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new ApiError(401, 'unauthorized', 'the session has ended; sign in again');
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.status === 403 && data?.error === 'csrf_token_invalid') {
    // The session cookie changed under this page (signed in again in another tab): its token is stale.
    throw new ApiError(
      403,
      data.error,
      'This page is out of date: the session changed since it was opened. Reload the page and try again.',
    );
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data?.error ?? `http_${response.status}`,
      data?.message ?? `the service answered ${response.status} ${response.statusText}`,
    );
  }
  return data;
}

/** Build an element: attributes (on* are listeners, `text` sets textContent) and children. */
export function h(tag, attributes = {}, ...children) {
  const svg = ['svg', 'g', 'path', 'line', 'rect', 'circle', 'text', 'title', 'polyline'].includes(tag);
  const node = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

export function showError(error) {
  const box = $('error');
  $('saved')?.setAttribute('hidden', '');
  if (!box) return;
  box.textContent = String(error?.message ?? error);
  box.dataset.code = error instanceof ApiError ? error.code : '';
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

/** A page about one resource that does not exist: say so and hide the forms that would act on it. */
export function showLoadError(error, content) {
  showError(error);
  if (error instanceof ApiError && error.status === 404) content.hidden = true;
}

export function showSaved(message) {
  $('error')?.setAttribute('hidden', '');
  const box = $('saved');
  if (!box) return;
  box.textContent = message;
  box.hidden = false;
}

export function clearMessages(form) {
  $('error')?.setAttribute('hidden', '');
  $('saved')?.setAttribute('hidden', '');
  for (const field of form?.querySelectorAll('[aria-invalid]') ?? []) field.removeAttribute('aria-invalid');
}

/** The API's messages start with the member they are about: mark that field and move focus to it. */
export function markInvalid(form, error) {
  if (!(error instanceof ApiError)) return;
  const member = /^(?:body\.)?([A-Za-z_][\w]*)/.exec(error.message)?.[1];
  const field = member ? form.elements.namedItem(member) : null;
  if (field instanceof HTMLElement) {
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}

/** Run a write with its button disabled, reporting a failure on the page. */
export async function busy(button, work) {
  button.disabled = true;
  try {
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  } finally {
    button.disabled = false;
  }
}

/**
 * Ask before a destructive write: one modal <dialog> built on demand, resolving to whether the
 * administrator pressed the confirming button (Escape and Cancel say no).
 */
export function confirmAction({ title, text, confirmLabel }) {
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'confirm-title', id: 'confirm' },
    h(
      'form',
      { method: 'dialog' },
      h('h2', { id: 'confirm-title', text: title }),
      h('p', { text }),
      h(
        'div',
        { class: 'actions' },
        h('button', { value: 'cancel', class: 'button subtle', text: 'Cancel' }),
        h('button', { value: 'confirm', class: 'button danger', id: 'confirm-button', text: confirmLabel }),
      ),
    ),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        dialog.remove();
        resolve(dialog.returnValue === 'confirm');
      },
      { once: true },
    );
    dialog.showModal();
  });
}

/**
 * A page's form that writes through the API: on submit the messages go and `button` is busy while `save` runs; an
 * API error is shown, with the field it names marked.
 */
export function wireSubmit(form, button, save) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearMessages(form);
    busy(button, async () => {
      try {
        await save();
      } catch (error) {
        markInvalid(form, error);
        throw error;
      }
    });
  });
}

/** A Delete button: confirm, DELETE the resource, then go back to its list. */
export function wireDelete(button, { title, text, path, next }) {
  button.addEventListener('click', async () => {
    if (!(await confirmAction({ title, text: text(), confirmLabel: 'Delete' }))) return;
    await busy(button, async () => {
      await api('DELETE', path);
      location.assign(next);
    });
  });
}

/**
 * Fill a list page's table from an API list, with a status line (`<table>-status` unless named) that counts or
 * explains emptiness: a row an item, its `cells(item)`, marked `data-<noun>-id` with the item's id.
 */
export async function loadList({ path, table, status = `${table}-status`, sortBy, cells, noun, empty }) {
  const row = (item) => h('tr', { [`data-${noun}-id`]: item.id }, ...cells(item));
  try {
    const items = await api('GET', path);
    const sorted = items.slice().sort((a, b) => String(sortBy(a)).localeCompare(String(sortBy(b))));
    document.querySelector(`#${table} tbody`).replaceChildren(...sorted.map(row));
    $(status).textContent = items.length ? `${items.length} ${noun}${items.length === 1 ? '' : 's'}` : empty;
  } catch (error) {
    $(status).textContent = '';
    showError(error);
  }
}

/**
 * Run `load` now and keep the page fresh: again `everyMs` after each run while the page is looked at (a hidden
 * tab does not poll), and as soon as it is shown again. Answers what runs it at once, for the page's controls.
 */
export function keepFresh(load, everyMs) {
  let timer = null;
  const run = async () => {
    clearTimeout(timer);
    try {
      await load();
    } finally {
      if (!document.hidden) timer = setTimeout(run, everyMs);
    }
  };
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) run();
  });
  run();
  return run;
}

/** Draw again once the window has stopped changing size: charts are drawn to the width they are given. */
export function redrawOnResize(draw) {
  let resizing = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(draw, 150);
  });
}

/** Today's times as a time of day; other days with their date. */
export function formatDate(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? date.toLocaleTimeString()
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Number.isInteger(ms) || ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

export const lines = (text) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** Copy buttons: `data-copy` names the element whose text they copy. */
export function wireCopyButtons(root = document) {
  root.querySelectorAll('button[data-copy]').forEach((button) => {
    button.addEventListener('click', async () => {
      const text = $(button.dataset.copy)?.textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        // Clipboard access needs a secure context; selecting the text lets the user copy it by hand.
        const range = document.createRange();
        range.selectNodeContents($(button.dataset.copy));
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        button.textContent = 'Selected';
      }
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 1500);
    });
  });
}

/** The menu button of narrow screens opens and closes the navigation. */
function wireMenu() {
  const toggle = document.querySelector('.nav-toggle');
  const header = toggle?.closest('.topbar');
  if (!toggle || !header) return;
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    header.classList.toggle('open', open);
  });
}

/**
 * Navigation entries and tabs marked `data-requires` name an API path their page needs (a plugin's API); they are
 * shown when the service's API description lists it, so a console never links to a page that cannot work.
 */
export const apiPaths = (() => {
  let paths = null;
  return () => {
    paths ??= fetch('/v3/api-docs', { headers: { Accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : { paths: {} }))
      .then((doc) => new Set(Object.keys(doc?.paths ?? {})))
      .catch(() => new Set());
    return paths;
  };
})();

async function revealGatedLinks() {
  const gated = document.querySelectorAll('[data-requires]');
  if (gated.length === 0) return;
  const paths = await apiPaths();
  for (const link of gated) link.hidden = !paths.has(link.dataset.requires);
}

wireMenu();
revealGatedLinks();
