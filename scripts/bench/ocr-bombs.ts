// Decompression bombs sent to OCR over HTTP: how long the runtime takes to refuse each one, beside the time it
// takes to read a normal one-page PDF on the same runtime, in one run. The tests check that each bomb is
// refused from its headers, naming the limit; the time goal (each refusal within a second, however large the
// size its header claims) is judged here, on a warm pool, with nothing else running.
//
//   node --import tsx scripts/bench/ocr-bombs.ts [--rounds N]
import os from 'node:os';
import { hugePagePdf, hugePng, pdfWithHugeImage } from '../../packages/extraction/test/fixtures/bombs.js';
import { makePdf } from '../../plugins/ocr/test/fixtures/documents.js';
import { startTestRuntime } from '../../runtime/testing/test-runtime.js';
import { printGoal } from './goal.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const ROUNDS = at >= 0 ? Number(args[at + 1]) : 5;

const vela = await startTestRuntime({ plugins: ['search', 'ocr'] });

async function upload(bytes: Uint8Array, name: string): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const began = performance.now();
  const res = await vela.fetch('search', '/api/ocr/file', { method: 'POST', body: form });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - began };
}

try {
  console.log(
    JSON.stringify({
      bench: 'ocr-bombs',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      rounds: ROUNDS,
    }),
  );
  const normal = await makePdf({ pages: [['A normal one-page report']] });
  // Every pool thread loads pdfjs and the readers on its first document: warmed, not measured.
  await Promise.all([upload(normal, 'warm.pdf'), upload(normal, 'warm.pdf')]);
  const systems: Array<{ name: string; bytes: Uint8Array; file: string; status: number }> = [
    { name: 'normal one-page PDF', bytes: normal, file: 'report.pdf', status: 200 },
    { name: 'PNG of 7,990 x 7,990 px (79 KB)', bytes: hugePng(), file: 'bomb.png', status: 413 },
    { name: 'PDF of one 14,400 x 14,400 pt page (418 B)', bytes: hugePagePdf(), file: 'page.pdf', status: 413 },
    { name: 'PDF drawing a 7,990 x 7,990 px image', bytes: pdfWithHugeImage(), file: 'image.pdf', status: 413 },
  ];
  const times = new Map(systems.map((s) => [s.name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotated, so a burst of load elsewhere does not land on one kind of document only.
    for (let k = 0; k < systems.length; k++) {
      const system = systems[(round + k) % systems.length]!;
      const { status, ms } = await upload(system.bytes, system.file);
      if (status !== system.status) throw new Error(`${system.name}: ${status}, expected ${system.status}`);
      times.get(system.name)!.push(ms);
    }
  }
  const normalMedian = median(times.get(systems[0]!.name)!);
  for (const system of systems) {
    const ms = times.get(system.name)!;
    console.log(
      JSON.stringify({
        system: system.name,
        status: system.status,
        medianMs: Math.round(median(ms) * 10) / 10,
        maxMs: Math.round(Math.max(...ms) * 10) / 10,
      }),
    );
  }
  for (const system of systems.slice(1)) {
    const ms = times.get(system.name)!;
    printGoal(`ocr: ${system.name} refused, slowest of ${ROUNDS}, ms`, Math.max(...ms), '<=', 1000);
    console.log(
      JSON.stringify({
        ratio: `${system.name} / normal one-page PDF (medians)`,
        value: Math.round((median(ms) / normalMedian) * 100) / 100,
      }),
    );
  }
  // The three bombs at once, then a normal document: the pool was never taken by them.
  const began = performance.now();
  const four = await Promise.all(systems.slice(1).map((s) => upload(s.bytes, s.file)));
  const after = await upload(normal, 'report.pdf');
  if (four.some((a) => a.status !== 413) || after.status !== 200)
    throw new Error('four bombs at once were not all refused');
  console.log(
    JSON.stringify({
      system: 'three bombs at once, then a normal PDF',
      totalMs: Math.round(performance.now() - began),
      normalMs: Math.round(after.ms),
    }),
  );
  printGoal(
    'ocr: a normal PDF right after three bombs at once, ms / its median alone',
    after.ms / normalMedian,
    '<=',
    3,
  );
} finally {
  await vela.stop();
}
