/**
 * Whether a process of this host runs with that pid: signal 0 tests it without sending anything (EPERM: it runs,
 * as another user). What the leftovers of a killed process (staging folders, leases) are judged by.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
