import { $, api, busy, confirmAction, h, markInvalid, showError, showSaved } from './console.js';
import { text } from './console-forms.js';
import { cell, numCell } from './console-tables.js';
import { siteMissing, sitePage } from './search-console.js';

const page = sitePage();
const form = $('locale-form');
let site = null;

async function render() {
  const monitoring = await api('GET', `${page.path}/monitoring`).catch(() => null);
  const rows = site.locales.map((locale) =>
    h(
      'tr',
      { 'data-locale': locale },
      cell('Locale', h('code', { text: locale })),
      numCell('Documents', monitoring?.locales?.[locale]?.documents),
      cell(
        'Search',
        h('a', {
          href: `/sn/${encodeURIComponent(site.name)}?q=*&_setlocale=${encodeURIComponent(locale)}`,
          text: 'Sample page',
        }),
      ),
      cell(
        '',
        h('button', {
          type: 'button',
          class: 'button danger',
          text: 'Remove',
          'aria-label': `Remove ${locale}`,
          disabled: site.locales.length === 1,
          title: site.locales.length === 1 ? 'A site keeps at least one locale' : undefined,
          onclick: (event) => remove(locale, event.currentTarget),
        }),
      ),
    ),
  );
  document.querySelector('#locales tbody').replaceChildren(...rows);
  $('locales-status').textContent = `${site.locales.length} locale${site.locales.length === 1 ? '' : 's'}`;
}

async function remove(locale, button) {
  if (
    !(await confirmAction({
      title: `Remove ${locale}?`,
      text: `Every document of “${site.name}” in ${locale} is deleted.`,
      confirmLabel: 'Remove',
    }))
  )
    return;
  await busy(button, async () => {
    site = await api('DELETE', `${page.path}/locale/${encodeURIComponent(locale)}`);
    await render();
    showSaved(`${locale} removed.`);
  });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  busy($('add-locale'), async () => {
    try {
      site = await api('POST', `${page.path}/locale`, { locale: text(form, 'locale') });
      form.reset();
      await render();
      showSaved('Locale added.');
    } catch (error) {
      markInvalid(form, error);
      throw error;
    }
  });
});

async function start() {
  try {
    site = await page.load();
    await render();
  } catch (error) {
    $('locales-status').textContent = '';
    showError(error);
    siteMissing(error);
  }
}

start();
