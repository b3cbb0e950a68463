import { createCanvas } from '@napi-rs/canvas';
import test from 'ava';
import { packedProblems, startPacked } from 'vela/testing';

// The ocr plugin as a user deploys it: packed with `vela pack` (the extraction library, tesseract.js with its
// language data, and busboy inside the archive) and loaded from the archive in another process, beside the
// search plugin's folder, whose service it is mounted on.

test('the packed ocr plugin loads alone from its archive beside the search plugin and reads a scan', async (t) => {
  // The archive carries tesseract.js, its language data, pdfjs-dist and the native canvas (about 40 MB packed).
  t.timeout(240_000);
  const packed = await startPacked(t, 'ocr', ['search']);
  const { vela } = packed;
  t.deepEqual(packedProblems(packed, ['ocr', 'search']), []);

  const canvas = createCanvas(900, 120);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 900, 120);
  g.fillStyle = '#000';
  g.font = '40px sans-serif';
  g.fillText('Packed archives read scans', 30, 75);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await canvas.encode('png'))], { type: 'image/png' }), 'scan.png');
  const res = await fetch(`${vela.urls.search}/api/ocr/file`, { method: 'POST', body: form });
  const recognized = (await res.json()) as { text: string };
  t.is(res.status, 200, JSON.stringify(recognized));
  t.regex(recognized.text, /Packed archives read scans/);
});
