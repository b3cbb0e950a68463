/** Poll until `check` holds or the deadline passes: tests wait for real work with a bound, never a fixed sleep. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}
