// The sample page's chat box (its own file: the page's CSP runs no inline script). It shows only when the
// site chats: GET /api/sn/<site>/chat without a question answers {enabled}, and answers 404 when no plugin
// serves chat (the genai plugin is not loaded). A question opens an EventSource on the same endpoint and the
// answer streams into the box; the final `done` event brings the sources, listed as links when their URL is
// http(s). Every value goes in as text (textContent, text nodes), never as markup.
import { safeHref } from './sample-links.js';

(() => {
  const box = document.getElementById('chat');
  if (!box) return;
  const $ = (id) => document.getElementById(id);
  const endpoint = `/api/sn/${encodeURIComponent(document.body.dataset.site)}/chat`;
  const query = (params) => {
    const locale = new URLSearchParams(location.search).get('_setlocale');
    if (locale) params.set('_setlocale', locale);
    return `${endpoint}?${params}`;
  };
  let source = null;

  const settle = (state, status) => {
    if (source) source.close();
    source = null;
    box.dataset.state = state;
    $('chat-status').textContent = status;
  };

  // The answer's [n] markers become links to the numbered sources below it.
  const render = (text, sources) => {
    const answer = $('chat-answer');
    answer.textContent = '';
    const known = new Set(sources.map((s) => String(s.n)));
    for (const part of String(text).split(/(\[\d+\])/)) {
      const n = /^\[(\d+)\]$/.exec(part)?.[1];
      if (n && known.has(n)) {
        const cite = document.createElement('a');
        cite.href = `#chat-source-${n}`;
        cite.className = 'cite';
        cite.textContent = part;
        answer.append(cite);
      } else if (part) {
        answer.append(document.createTextNode(part));
      }
    }
    const list = $('chat-sources');
    list.textContent = '';
    for (const s of sources) {
      const item = document.createElement('li');
      item.id = `chat-source-${s.n}`;
      item.value = Number(s.n);
      const href = s.url ? safeHref(s.url) : null;
      const title = document.createElement(href ? 'a' : 'span');
      if (href) title.href = href;
      title.textContent = s.title || s.id;
      item.append(title);
      list.append(item);
    }
  };

  const ask = (question) => {
    settle('streaming', 'Searching…');
    $('chat-answer').textContent = '';
    $('chat-sources').textContent = '';
    let text = '';
    const events = new EventSource(query(new URLSearchParams({ q: question })));
    source = events;
    events.addEventListener('delta', (event) => {
      text += JSON.parse(event.data).text;
      $('chat-answer').textContent = text;
      $('chat-status').textContent = '';
    });
    events.addEventListener('done', (event) => {
      const done = JSON.parse(event.data);
      render(done.text, done.sources || []);
      settle('done', '');
    });
    events.addEventListener('failed', (event) => settle('failed', JSON.parse(event.data).message));
    events.addEventListener('disabled', (event) => settle('failed', JSON.parse(event.data).message));
    // A stream that ends without `done` or `failed`, or a refused request (503 when the model is busy).
    events.onerror = () => {
      if (source === events) settle('failed', 'The answer could not be loaded. Try again in a moment.');
    };
  };

  $('chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const question = $('chat-q').value.trim();
    if (question) ask(question);
  });

  fetch(query(new URLSearchParams()), { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : null))
    .then((status) => {
      if (status?.enabled) box.hidden = false;
    })
    .catch(() => {});
})();
