// Reads a V8 CPU profile (`node --cpu-prof` writes one per thread at exit) and prints where the time went:
// self time by function and by file, optionally cut to a time window and divided by the requests served in it.
//
//   node --import tsx scripts/bench/cpu-profile.ts <file.cpuprofile> [--from µs --to µs] [--requests N] [--top 30]
//
// --from and --to are microseconds of the monotonic clock (`process.hrtime.bigint() / 1000n` in any process
// on the machine: V8 stamps its samples with the same clock), so a load generator can note its window and the
// profile of another process can be cut to it. Without them the whole profile counts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  windowMs: number;
  sampledMs: number;
  idleMs: number;
  /** [label, self ms] by function, most first. */
  functions: Array<[string, number]>;
  /** [file, self ms], most first. */
  files: Array<[string, number]>;
  /** [label, total ms]: time with the function anywhere on the stack (itself and what it called), most first. */
  totals: Array<[string, number]>;
}

const shortUrl = (url: string) => {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) return clean.slice(nm + 1);
  if (clean.startsWith('node:')) return clean;
  return path.relative(process.cwd(), clean);
};

const labelOf = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  url ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}` : functionName || '(anonymous)';

/** Total time of each function: a sample counts once for every distinct function on its stack. */
function totalsOf(profile: Profile, self: Map<number, number>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      seen.add(labelOf(byId.get(at)!.callFrame));
    for (const label of seen) totals.set(label, (totals.get(label) ?? 0) + us);
  }
  return totals;
}

export function summarize(profile: Profile, from = -Infinity, to = Infinity): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  let sampled = 0;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    // A sample's time is the interval since the previous one: the next delta measures this sample.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (t < from || t > to) continue;
    first = Math.min(first, t);
    last = Math.max(last, t);
    sampled += dt;
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + dt);
  }
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    const { functionName, url } = callFrame;
    if (functionName === '(idle)') idle += us;
    const label = labelOf(callFrame);
    functions.set(label, (functions.get(label) ?? 0) + us);
    const file = url ? shortUrl(url) : functionName;
    files.set(file, (files.get(file) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, us]): [string, number] => [k, us / 1000]);
  return {
    windowMs: Number.isFinite(first) ? (last - first) / 1000 : 0,
    sampledMs: sampled / 1000,
    idleMs: idle / 1000,
    functions: sorted(functions),
    files: sorted(files),
    totals: sorted(totalsOf(profile, self)),
  };
}

/** Lines of text: the top entries, in ms and, with a request count, in µs per request. */
export function report(summary: ProfileSummary, requests = 0, top = 30): string {
  const busy = summary.sampledMs - summary.idleMs;
  const per = (ms: number) => (requests > 0 ? `${((ms * 1000) / requests).toFixed(2).padStart(8)} µs/req` : '');
  const pct = (ms: number) => `${((100 * ms) / Math.max(busy, 1e-9)).toFixed(1).padStart(5)}%`;
  const lines = [
    `window ${summary.windowMs.toFixed(0)} ms, sampled ${summary.sampledMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms, busy ${busy.toFixed(0)} ms` +
      (requests > 0
        ? `, ${requests} requests: ${((busy * 1000) / requests).toFixed(1)} µs of main-thread CPU per request`
        : ''),
    '',
    'self time by function (% of busy):',
  ];
  for (const [label, ms] of summary.functions.filter(([l]) => !l.startsWith('(idle)')).slice(0, top)) {
    lines.push(`${pct(ms)} ${ms.toFixed(1).padStart(9)} ms ${per(ms)}  ${label}`);
  }
  lines.push('', 'self time by file:');
  for (const [file, ms] of summary.files.filter(([f]) => f !== '(idle)').slice(0, top)) {
    lines.push(`${pct(ms)} ${ms.toFixed(1).padStart(9)} ms ${per(ms)}  ${file}`);
  }
  lines.push('', 'total time by function (itself and what it called):');
  const hidden = new Set(['(root)', '(idle)', '(program)', '(garbage collector)']);
  for (const [label, ms] of summary.totals.filter(([l]) => !hidden.has(l)).slice(0, top)) {
    lines.push(`${pct(ms)} ${ms.toFixed(1).padStart(9)} ms ${per(ms)}  ${label}`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : undefined;
  };
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1]!.startsWith('--')));
  if (!file) {
    console.error('usage: cpu-profile.ts <file.cpuprofile> [--from µs --to µs] [--requests N] [--top N]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  console.log(report(summarize(profile, option('--from'), option('--to')), option('--requests'), option('--top')));
}
