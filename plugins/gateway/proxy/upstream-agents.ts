import http from 'node:http';
import https from 'node:https';

/**
 * One keep-alive agent per upstream origin, with a bounded number of sockets, so a proxied request
 * reuses a warm connection instead of opening one.
 */
export class UpstreamAgents {
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly maxSockets: number) {}

  agentFor(url: URL): http.Agent {
    let agent = this.agents.get(url.origin);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: this.maxSockets, maxFreeSockets: this.maxSockets, scheduling: 'lifo' as const };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(url.origin, agent);
    }
    return agent;
  }

  /** Close the agents of origins no mapping uses any more. */
  retain(origins: Set<string>): void {
    for (const [origin, agent] of this.agents) {
      if (!origins.has(origin)) {
        agent.destroy();
        this.agents.delete(origin);
      }
    }
  }

  destroyAll(): void {
    this.retain(new Set());
  }
}
