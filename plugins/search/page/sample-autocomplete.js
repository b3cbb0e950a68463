// The search box's suggestions: GET /api/sn/<site>/ac as the visitor types, shown as a list under the box.
// It follows the WAI-ARIA combobox pattern (the box keeps the focus; the highlighted option is named by
// aria-activedescendant), so the list is used with the keyboard and read by screen readers. Suggestions are
// set as text, never as markup: they are words of the site's documents.
(() => {
  const input = document.getElementById('q');
  const list = document.getElementById('q-suggestions');
  const form = document.getElementById('search-form');
  const site = document.body.dataset.site;
  // Typing pauses this long before a request: one request a word, not one a key.
  const DEBOUNCE_MS = 150;
  const ROWS = 8;
  let timer = 0;
  let pending = null;
  let options = [];
  let active = -1;

  const isOpen = () => !list.hidden;
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (index) => {
    active = index;
    for (const [i, option] of [...list.children].entries()) option.setAttribute('aria-selected', String(i === index));
    if (index < 0) {
      input.removeAttribute('aria-activedescendant');
      return;
    }
    const option = list.children[index];
    input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  };
  const open = () => {
    if (options.length === 0) return;
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  const show = (suggestions) => {
    options = suggestions;
    list.replaceChildren(
      ...suggestions.map((text, i) => {
        const option = document.createElement('li');
        option.id = `q-suggestion-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.textContent = text;
        return option;
      }),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    if (suggestions.length === 0) close();
    else open();
  };
  // A suggestion is the whole query completed: choosing one searches it.
  const choose = (index) => {
    input.value = options[index];
    close();
    form.requestSubmit();
  };

  const suggest = async (text) => {
    pending?.abort();
    pending = new AbortController();
    const locale = document.getElementById('locale').value;
    const url = `/api/sn/${encodeURIComponent(site)}/ac?q=${encodeURIComponent(text)}&_setlocale=${encodeURIComponent(locale)}&rows=${ROWS}`;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, signal: pending.signal });
      const body = response.ok ? await response.json() : [];
      // An answer to text no longer in the box, or arriving after the visitor left it, is not shown.
      if (input.value !== text || document.activeElement !== input) return;
      show(Array.isArray(body) ? body.filter((s) => typeof s === 'string') : []);
    } catch {
      // Aborted by the next keystroke, or the network failed: the box works without suggestions.
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const text = input.value;
    if (text.trim().length < 2) {
      pending?.abort();
      show([]);
      return;
    }
    timer = setTimeout(() => suggest(text), DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (event) => {
    if (event.isComposing) return;
    const count = options.length;
    switch (event.key) {
      case 'ArrowDown':
        if (count === 0) return;
        event.preventDefault();
        if (!isOpen()) open();
        highlight(active + 1 < count ? active + 1 : 0);
        break;
      case 'ArrowUp':
        if (count === 0) return;
        event.preventDefault();
        if (!isOpen()) open();
        highlight(active > 0 ? active - 1 : count - 1);
        break;
      case 'Enter':
        if (isOpen() && active >= 0) {
          event.preventDefault();
          choose(active);
        } else {
          close();
        }
        break;
      case 'Escape':
        if (isOpen()) {
          event.preventDefault();
          close();
        }
        break;
      default:
    }
  });

  // A press on an option must not take the focus from the box (it would close the list before the click).
  list.addEventListener('mousedown', (event) => event.preventDefault());
  list.addEventListener('click', (event) => {
    const option = event.target.closest('[role="option"]');
    if (option) choose([...list.children].indexOf(option));
  });
  input.addEventListener('blur', close);
})();
