// What the workers benchmarks share: `vela start --workers N` for one service, and whether wrk is here.
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
      resolve({ base: (JSON.parse(ready) as { urls: Record<string, string> }).urls[service]!, pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`vela --workers exited early (${code}): ${out.slice(-2000)}`)));
  });
}
