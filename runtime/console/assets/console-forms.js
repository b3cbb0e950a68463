// Forms of console pages: a form in a <dialog> that runs an API write, and reading and setting its members.
import { $, markInvalid } from './console.js';

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
