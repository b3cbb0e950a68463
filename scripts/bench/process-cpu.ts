// CPU use of processes and of the machine, from /proc, and which process listens on a port: what the
// benchmarks that compare server processes (gateway-proxy.ts, search-workers.ts, connector-index.ts) and the
// import's measurements (search-service.ts) read around each round.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The process listening on a loopback port (ss runs as the same user, so it names the pid). */
export function pidOfPort(port: number): number | null {
  const match = /pid=(\d+)/.exec(execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' }));
  return match ? Number(match[1]) : null;
}

/** utime + stime of a /proc `stat` file, in seconds; `reaped`: with its waited-for children's. */
function statCpu(file: string, reaped = false): number {
  const stat = readFileSync(file, 'utf8');
  // After "pid (comm) ": state is field 3 of proc(5); utime, stime, cutime, cstime are 14 to 17, in ticks of 1/100 s.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

/** CPU seconds (user + system) a process has used so far; `reaped`: with its waited-for children's (a finished wrk). */
export function procCpu(pid: number, reaped = false): number {
  return statCpu(`/proc/${pid}/stat`, reaped);
}

/**
 * CPU seconds this process's main thread has used so far: what no other thread's work (SQLite's, the collector's)
 * inflates.
 */
export function mainThreadCpu(): number {
  return statCpu(`/proc/self/task/${process.pid}/stat`);
}

/**
 * A process's child processes (cluster workers, the search process a bench started); none when /proc has no children
 * file.
 */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Busy and total CPU seconds of the whole machine, from /proc/stat (every core). */
export function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!; // idle + iowait
  return { busy: (total - idle) / 100, total: total / 100 };
}
