// Shared by the search console's page scripts: the site a page is about, table cells that become
// labelled cards on narrow screens, and forms in dialogs. Everything else comes from the kit's console.js.
import { $, ApiError, api, confirmAction, h, markInvalid, showError } from './console.js';

/** A table cell that carries its column's name, shown beside the value when the table turns into cards. */
export const cell = (label, ...children) => h('td', { 'data-label': label }, ...children);
export const numCell = (label, value) => h('td', { 'data-label': label, class: 'num', text: value ?? '—' });
export const yesNo = (value) => (value ? 'Yes' : 'No');

/** The last cell of a row: Edit and Delete buttons named after the item, for screen readers and tests. */
export const actionsCell = (name, { edit, remove }) =>
  cell(
    '',
    h(
      'span',
      { class: 'row-actions' },
      h('button', {
        type: 'button',
        class: 'button subtle',
        text: 'Edit',
        'aria-label': `Edit ${name}`,
        onclick: edit,
      }),
      h('button', {
        type: 'button',
        class: 'button danger',
        text: 'Delete',
        'aria-label': `Delete ${name}`,
        onclick: remove,
      }),
    ),
  );

/**
 * Ask, then DELETE: true when it is gone, also when it was already gone (a 404: deleted from another tab
 * or by an API client), so the caller reloads its list instead of keeping a row nothing stands behind;
 * any other refusal is shown on the page.
 */
export async function confirmDelete({ title, text, path }) {
  if (!(await confirmAction({ title, text, confirmLabel: 'Delete' }))) return false;
  try {
    await api('DELETE', path);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return true;
    showError(error);
    return false;
  }
}

/** "3 tokens", or what an empty list means. */
export const countText = (count, noun, empty) => (count ? `${count} ${noun}${count === 1 ? '' : 's'}` : empty);

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

/**
 * A form in a <dialog>: `open(values)` fills and shows it; the submit handler gets the form and runs the
 * write; an API error is shown in the dialog, with the field it names marked. Cancel and Escape close it.
 */
export function dialogForm({ dialog, form, error, cancel, submit, button }) {
  const box = $(error);
  const showDialogError = (failure) => {
    box.textContent = String(failure?.message ?? failure);
    box.hidden = false;
    markInvalid(form, failure);
  };
  $(cancel).addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    box.hidden = true;
    for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
    const saveButton = $(button);
    saveButton.disabled = true;
    try {
      await submit();
      dialog.close();
    } catch (failure) {
      showDialogError(failure);
    } finally {
      saveButton.disabled = false;
    }
  });
  return {
    open() {
      box.hidden = true;
      for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
      dialog.showModal();
    },
    showError: showDialogError,
  };
}

/** Set form members by name: checkboxes from booleans, the rest as text. */
export function setFields(form, values) {
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!field || field instanceof RadioNodeList) continue;
    if (field.type === 'checkbox') field.checked = !!value;
    else field.value = value ?? '';
  }
}

export const text = (form, name) => form.elements.namedItem(name).value.trim();
export const checked = (form, name) => form.elements.namedItem(name).checked;
/** A number field: its number, or null when empty. */
export const numberOrNull = (form, name) => (text(form, name) === '' ? null : Number(text(form, name)));

/** A comma- or line-separated list. */
export const list = (value) =>
  String(value ?? '')
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
