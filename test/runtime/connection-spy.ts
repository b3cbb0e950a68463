import { isIP } from 'node:net';
import type { ConnectHook } from '../../runtime/network/outbound-guard.js';

/**
 * The guard's connect hook for tests: it records every connection the guard was about to open, and stops any
 * that is not to 127.0.0.0/8, so even a guard that let an internal address through could not send a packet.
 */
export function connectionSpy(): { hook: ConnectHook; attempts: string[] } {
  const attempts: string[] = [];
  const hook: ConnectHook = ({ hostname, address }) => {
    attempts.push(`${hostname}=${address}`);
    if (isIP(address) !== 4 || !address.startsWith('127.'))
      throw new Error(`the test stopped a connection to ${address} (${hostname})`);
  };
  return { hook, attempts };
}
