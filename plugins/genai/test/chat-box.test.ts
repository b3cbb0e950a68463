import test from 'ava';
import { browserSuite, pageLayoutProblems, startTestRuntimeFor, VIEWPORTS, watchInjections } from 'vela/testing';
import { createHandbook, HANDBOOK, json, startGenai } from './fixtures.js';

// The sample page's chat box (a file of the search plugin's page, plugins/search/page/sample-chat.js) in
// headless Chromium, against the genai plugin's site chat with the built-in provider.

const MARKUP_DOC = {
  id: 'markup',
  title: 'Health <img src=x onerror="window.__ran=1"> checks <b>bold</b>',
  text: 'Health checks run every ten seconds. <script>window.__ran=1</script> A failing check turns the service DOWN.',
  section: 'Operations',
  url: 'https://docs.example/health',
};

const ui = browserSuite(
  test,
  async () => {
    const vela = await startGenai();
    await createHandbook(vela, 'Handbook', [...HANDBOOK, MARKUP_DOC]);
    return vela;
  },
  { serial: false },
);

ui.test('the chat box streams a grounded answer from the site chat, with its sources as links', async (t) => {
  const page = await ui.browser.newPage();
  const chatRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/chat'))
      chatRequests.push(`${r.headers().accept ?? ''} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
  });
  await page.goto(ui.vela.url('search', '/sn/Handbook'));
  await page.waitForSelector('#chat:not([hidden])');
  // Record every state of the answer as it grows, to see it stream.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver(() => seen.push(document.getElementById('chat-answer')!.textContent ?? '')).observe(
      document.getElementById('chat-answer')!,
      {
        childList: true,
        characterData: true,
        subtree: true,
      },
    );
  });
  await page.fill('#chat-q', 'Which port does the connector listen on?');
  await page.press('#chat-q', 'Enter');
  await page.waitForSelector('#chat[data-state="done"]');

  const answer = (await page.locator('#chat-answer').textContent())!;
  t.regex(answer, /The connector listens on port 30130\. \[1\]/);
  const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  t.true(
    seen.filter((s) => s && s.length < answer.length).length >= 2,
    `the answer grew piece by piece: ${JSON.stringify(seen)}`,
  );
  t.is(await page.locator('#chat-answer a.cite').first().getAttribute('href'), '#chat-source-1');
  t.deepEqual(await page.locator('#chat-sources li').allTextContents(), ['Ports and services']);
  t.is(await page.locator('#chat-sources li a').getAttribute('href'), 'https://docs.example/ports');
  t.is(await page.locator('#chat-status').textContent(), '');
  t.deepEqual(chatRequests, [
    'application/json /api/sn/Handbook/chat?_setlocale=en_US',
    `text/event-stream /api/sn/Handbook/chat?q=Which+port+does+the+connector+listen+on%3F&_setlocale=en_US`,
  ]);
  await page.screenshot({ path: `${ui.vela.dataDir}/chat-box.png`, fullPage: true });

  // The search page still works beside it.
  t.is(await page.locator('article').count(), HANDBOOK.length + 1);
  await page.close();
});

ui.test(
  'sources and answers are text: markup in a document runs nothing, and a javascript: URL is no link',
  async (t) => {
    const page = await ui.browser.newPage();
    const planted = watchInjections(page);
    await page.goto(ui.vela.url('search', '/sn/Handbook?q=*&_setlocale=en_US'));
    await page.waitForSelector('#chat:not([hidden])');

    await page.fill('#chat-q', 'How often do health checks run?');
    await page.press('#chat-q', 'Enter');
    await page.waitForSelector('#chat[data-state="done"]');
    t.regex((await page.locator('#chat-answer').textContent())!, /Health checks run every ten seconds\./);
    t.is(
      await page.locator('#chat-sources li').first().textContent(),
      MARKUP_DOC.title,
      'the title is shown as the text it is',
    );
    t.is(await page.locator('#chat img, #chat script, #chat b').count(), 0);

    await page.fill('#chat-q', 'What does every service answer?');
    await page.press('#chat-q', 'Enter');
    await page.waitForSelector('#chat[data-state="done"]');
    const monitoring = page.locator('#chat-sources li', { hasText: 'Monitoring' });
    t.is(await monitoring.count(), 1);
    t.is(await monitoring.locator('a').count(), 0, 'javascript: stays text');
    t.is(await monitoring.locator('span').textContent(), 'Monitoring');
    await monitoring.click();
    t.deepEqual(await planted.traces(100), []);
    await page.close();
  },
);

ui.test(
  'on a phone the chat box fits: its whole placeholder shows and the Ask button stays on the screen',
  async (t) => {
    const page = await ui.open('search', '/sn/Handbook?q=*&_setlocale=en_US', '#chat:not([hidden])', VIEWPORTS.phone);
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'chat-box-phone.png'), []);
    const fit = await page.locator('#chat-q').evaluate((input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return {
        text: (input as HTMLInputElement).placeholder,
        width: context.measureText((input as HTMLInputElement).placeholder).width,
        room,
      };
    });
    t.true(fit.width <= fit.room, `"${fit.text}" is ${Math.ceil(fit.width)} px in a box of ${fit.room} px`);
    t.true(await page.getByRole('button', { name: 'Ask' }).isVisible());
    await page.close();
  },
);

ui.test('the chat box stays hidden when the site does not chat, and when no plugin serves chat', async (t) => {
  await createHandbook(ui.vela, 'Quiet');
  await json(ui.vela, 'PUT', '/api/sn/Quiet/genai', { enabled: false });
  const page = await ui.browser.newPage();
  const probe = page.waitForResponse((r) => r.url().includes('/api/sn/Quiet/chat'));
  await page.goto(ui.vela.url('search', '/sn/Quiet?q=*&_setlocale=en_US'));
  t.like(await (await probe).json(), { enabled: false });
  await page.waitForSelector('article');
  t.true(await page.locator('#chat').isHidden());

  // Only the search plugin: GET /api/sn/<site>/chat is a 404, and the page shows no chat box.
  const searchOnly = await startTestRuntimeFor(t, { plugins: ['search'] });
  await createHandbook(searchOnly);
  const alone = page.waitForResponse((r) => r.url().includes('/chat'));
  await page.goto(searchOnly.url('search', '/sn/Handbook?q=*&_setlocale=en_US'));
  t.is((await alone).status(), 404);
  await page.waitForSelector('article');
  t.true(await page.locator('#chat').isHidden());
  await page.close();
});
