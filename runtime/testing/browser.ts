import { existsSync } from 'node:fs';

/** Debian's Chromium, which the browser tests drive through playwright-core (no browser download). */
export const CHROMIUM = process.env.VELA_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here; with VELA_REQUIRE_BROWSER=1 (CI) they always run, so a
 * missing browser is a failure rather than a skip.
 */
export function browserAvailable(): boolean {
  return process.env.VELA_REQUIRE_BROWSER === '1' || existsSync(CHROMIUM);
}

/** Flags that keep Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
