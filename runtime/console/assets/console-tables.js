// Tables of API items on console pages: cells that become labelled cards on narrow screens, a row's Edit and
// Delete buttons, deletion after a confirmation, and the status line under a table.
import { ApiError, api, confirmAction, h, showError } from './console.js';

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
 * Ask, then DELETE, then `deleted` (the page reloads its list): it is gone also when it was already gone (a 404: deleted
 * from another tab or by an API client), so the list is reloaded instead of keeping a row nothing stands behind; any
 * other refusal, or a failure of `deleted`, is shown on the page. True when it is gone.
 */
export async function confirmDelete({ title, text, path, deleted }) {
  if (!(await confirmAction({ title, text, confirmLabel: 'Delete' }))) return false;
  try {
    await api('DELETE', path);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      showError(error);
      return false;
    }
  }
  try {
    await deleted?.();
  } catch (error) {
    showError(error);
  }
  return true;
}

/** "3 tokens", or what an empty list means. */
export const countText = (count, noun, empty) => (count ? `${count} ${noun}${count === 1 ? '' : 's'}` : empty);
