/**
 * The writes a store made to what it holds in memory, for its reloads (every pollMs, and on another process's
 * notice). A reload's read may run on another connection of the pool and be answered from before one of this
 * process's writes that lands meanwhile; kept, it would undo that write in memory until the next reload (a
 * deleted API token would work again, an imported spotlight would be missing). Such a read is made again.
 */
export class MemoryWrites {
  private count = 0;

  /** A write of this process reached memory. */
  mark(): void {
    this.count += 1;
  }

  /**
   * What `read` returned while no write landed, or null when writes landed during each of `attempts` reads:
   * memory is then at least as new as the database for this process's writes, and the next reload catches up
   * with the others'.
   */
  async settled<T>(read: () => Promise<T>, attempts = 3): Promise<T | null> {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const before = this.count;
      const value = await read();
      if (before === this.count) return value;
    }
    return null;
  }
}
