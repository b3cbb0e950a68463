// What the workers benchmarks share: `vela start --workers N` for one service, and wrk (whether it is here, one run).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { childEnv, VELA_BIN } from '../../runtime/testing/child-runtime.js';

/** Whether the wrk load generator is installed. */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1; only a missing binary (ENOENT) means no wrk
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * `vela start --workers N --plugins <service>` on `dataDir`, added to `children` (the caller stops them): resolves
 * once the primary logs that every worker is ready, with the service's URL and the primary's pid.
 */
export function startVelaWorkers(
  service: 'gateway' | 'search',
  dataDir: string,
  workers: number,
  children: ChildProcess[],
): Promise<{ base: string; pid: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VELA_BIN, 'start', '--workers', String(workers), '--plugins', service], {
      env: childEnv({ VELA_DATA_DIR: dataDir, VELA_LOG_FORMAT: 'json', VELA_LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (!out.includes('"all workers ready"')) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      const ready = out.split('\n').find((l) => l.includes('"all workers ready"'))!;
      resolve({
        base: (JSON.parse(ready) as { urls: Record<string, string> }).urls[service]!,
        pid: child.pid!,
        stop: () => child.kill('SIGTERM'),
      });
    });
    child.on('exit', (code) => reject(new Error(`vela --workers exited early (${code}): ${out.slice(-2000)}`)));
  });
}

export interface WrkResult {
  reqPerSec: number;
  /** NaN without `--latency`. */
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** wrk's latency with its unit (us, ms, s) in milliseconds. */
function wrkMs(text: string, label: string): number {
  const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * (match[2] === 'us' ? 0.001 : match[2] === 's' ? 1000 : 1);
}

/**
 * One wrk run with these arguments; resolves once wrk has exited (and has been reaped, so its CPU shows in our cutime).
 */
export function wrk(args: string[]): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
      if (code !== 0 || !rate) return reject(new Error(`wrk exited with ${code}: ${out}`));
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      resolve({
        reqPerSec: Number(rate[1]),
        p50Ms: wrkMs(out, '50%'),
        p99Ms: wrkMs(out, '99%'),
        non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
        errors: errors ? errors.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
      });
    });
  });
}
