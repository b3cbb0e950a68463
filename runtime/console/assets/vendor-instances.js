import { $, api, h, showError, showSaved } from './console.js';
import { dialogForm, setFields } from './console-forms.js';
import { actionsCell, cell, confirmDelete, countText, yesNo } from './console-tables.js';

/**
 * A page of instances that each talk to a vendor (the LLM instances, the integrations): a table of them, a dialog
 * that creates or edits one, and deletion. `name` prefixes the page's ids (`<name>-dialog`, `<name>-form`,
 * `<name>-error`, `<name>-cancel`, `<name>-save`, `<name>-dialog-title`, `add-<name>`, `data-<name>-id`), `table`
 * the table's id and `<table>-status`'s; each row shows the title, the vendor, `cells(item)` and whether it is enabled; `path` is the collection in the API, whose `<path>/vendor` lists the choices
 * of the form's `vendor` select. The dialog shows an item over `defaults` (a new one: `defaults` and the first vendor),
 * with `cleared` emptied (write-only members); `body(form)` is what a save sends. Resolves when the list is first
 * shown. The page's template has the table (`table.html`) and the dialog (`vendor-instance-dialog.html`).
 */
export async function vendorInstancesPage({
  name,
  table,
  path,
  noun,
  empty,
  cells,
  dialogTitle,
  defaults,
  cleared = {},
  body,
  saved,
  deleteTitle,
  deleteText,
}) {
  const dialog = $(`${name}-dialog`);
  const form = $(`${name}-form`);
  let items = [];
  let editing = null;
  const itemPath = (item) => `${path}/${encodeURIComponent(item.id)}`;

  const render = () => {
    const rows = items.map((item) =>
      h(
        'tr',
        { [`data-${name}-id`]: item.id },
        cell('Title', item.title),
        cell('Vendor', item.vendor),
        ...cells(item),
        cell('Enabled', yesNo(item.enabled)),
        actionsCell(item.title, { edit: () => edit(item), remove: () => remove(item) }),
      ),
    );
    document.querySelector(`#${table} tbody`).replaceChildren(...rows);
    $(`${table}-status`).textContent = countText(items.length, noun, empty);
  };

  const load = async () => {
    try {
      items = await api('GET', path);
      render();
    } catch (error) {
      $(`${table}-status`).textContent = '';
      showError(error);
    }
  };

  const itemDialog = dialogForm({
    dialog,
    form,
    error: `${name}-error`,
    cancel: `${name}-cancel`,
    button: `${name}-save`,
    async submit() {
      if (editing) await api('PUT', itemPath(editing), body(form));
      else await api('POST', path, body(form));
      showSaved(saved);
      await load();
    },
  });

  function edit(item) {
    editing = item;
    $(`${name}-dialog-title`).textContent = dialogTitle(item);
    const vendor = form.elements.namedItem('vendor').options[0]?.value ?? '';
    setFields(form, { vendor, ...defaults, ...(item ?? {}), ...cleared });
    itemDialog.open();
    form.elements.namedItem('title').focus();
  }

  async function remove(item) {
    await confirmDelete({ title: deleteTitle(item), text: deleteText, path: itemPath(item), deleted: load });
  }

  try {
    const vendors = await api('GET', `${path}/vendor`);
    form.elements
      .namedItem('vendor')
      .replaceChildren(...vendors.map((v) => h('option', { value: v.id, text: v.title ?? v.id })));
  } catch (error) {
    showError(error);
  }
  $(`add-${name}`).addEventListener('click', () => edit(null));
  await load();
}
