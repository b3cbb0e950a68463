import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CommandResult {
  status: number;
  /** stdout and stderr, interleaved as a terminal would show them. */
  output: string;
}

/**
 * One bash process for a whole document, so the variables a command sets reach the next ones. Each command is
 * sourced from a file with its output captured in another file (stdin closed: a command that reads its input
 * cannot swallow the next one); bash reports its exit status on stdout.
 */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private count = 0;
  private pending = '';
  private waiter: ((line: string) => void) | null = null;
  private exited = false;

  constructor(
    private readonly dir: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
  ) {
    // Its own process group, so closing the session also ends what a command left running.
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true });
    this.bash.stdout.setEncoding('utf8');
    this.bash.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      const newline = this.pending.indexOf('\n');
      if (newline >= 0 && this.waiter) {
        const line = this.pending.slice(0, newline);
        this.pending = this.pending.slice(newline + 1);
        this.waiter(line);
      }
    });
    this.bash.stderr.resume();
    this.bash.on('exit', () => {
      this.exited = true;
      this.waiter?.('exited');
    });
  }

  /** Run one command; null when it did not end within `timeoutMs` (the session is closed then). */
  async run(command: string, timeoutMs: number): Promise<CommandResult | null> {
    if (this.exited) throw new Error('the shell session has ended (a command ran exit?)');
    const n = ++this.count;
    const script = path.join(this.dir, `command-${n}.sh`);
    const output = path.join(this.dir, `output-${n}.txt`);
    writeFileSync(script, `${command}\n`);
    const reported = new Promise<string>((resolve) => {
      this.waiter = resolve;
    });
    this.bash.stdin.write(
      `source ${JSON.stringify(script)} </dev/null >${JSON.stringify(output)} 2>&1; printf 'docs-test %s %s\\n' ${n} $?\n`,
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const line = await Promise.race([reported, timedOut]);
    clearTimeout(timer);
    this.waiter = null;
    const match = line === null ? null : /^docs-test (\d+) (\d+)$/.exec(line);
    if (!match || Number(match[1]) !== n) {
      this.close();
      return null;
    }
    return { status: Number(match[2]), output: readFileSync(output, 'utf8') };
  }

  close(): void {
    if (this.exited || this.bash.pid === undefined) return;
    try {
      process.kill(-this.bash.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
