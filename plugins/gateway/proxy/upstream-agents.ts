import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

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
      // No agent `timeout`: Node would arm a socket timer on every request (hot path); the upstream's own
      // keep-alive timeout closes idle sockets, and `retain` empties the agents it drops.
      const options = { keepAlive: true, maxSockets: this.maxSockets, maxFreeSockets: this.maxSockets, scheduling: 'lifo' as const };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(url.origin, agent);
    }
    return agent;
  }

  /**
   * Forget the agents of origins no mapping uses any more: their idle sockets close now, and the
   * ones still carrying a request finish it and then time out (a mapping edit cuts nothing off).
   */
  retain(origins: Set<string>): void {
    for (const [origin, agent] of this.agents) {
      if (origins.has(origin)) continue;
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      // Sockets still carrying a request are closed as soon as they are free, instead of waiting idle.
      agent.on('free', (socket: Socket) => socket.destroy());
      this.agents.delete(origin);
    }
  }

  destroyAll(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
