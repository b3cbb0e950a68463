import { type OutboundGuard, OutboundRefused } from 'vela/plugin';
import type { SourceKind } from '../api.js';
import { connectorErrors } from '../errors.js';

/**
 * A source whose kind fetches over HTTP names its URLs; each goes through the outbound guard when the
 * source is saved, so a URL of an internal address is refused now (400 naming the member and the rule)
 * rather than at every run. A host that does not resolve here is left to the run: the network may differ.
 */
export async function checkFetchTargets(
  kind: SourceKind<Record<string, unknown>>,
  settings: Record<string, unknown>,
  outbound: OutboundGuard,
): Promise<void> {
  const problems: string[] = [];
  for (const { member, url } of kind.fetchesFrom?.(settings) ?? []) {
    try {
      await outbound.check(url);
    } catch (error) {
      if (error instanceof OutboundRefused)
        problems.push(`${member} is ${error.message}; an operator can allow the host in runtime.network.allowHosts`);
    }
  }
  if (problems.length > 0) throw connectorErrors.invalidSettings(kind.name, problems);
}
