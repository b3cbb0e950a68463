import type { ConnectorRuns, ConnectorSources } from '@vela/plugin-connector/api';
import type { Logger, OutboundFetch } from 'vela/plugin';
import type { CmsSource, PathAttribute, PathEvent } from '../api.js';
import { walkContent } from '../repository/content-walk.js';
import { environmentsOf } from '../sources/cms-source.js';
import type { CmsSourceStore } from '../sources/cms-source-store.js';
import { type RepositoryLimits, repositoryClient } from '../sources/repository-client.js';
import { type EventStep, stepsOf } from './event-plan.js';
import { contentPathsOf } from './path-resolution.js';
import type { RepeatFilter, RequestIdentity } from './repeat-filter.js';

export interface PathListRequest {
  paths: string[];
  event: PathEvent;
  recursive: boolean;
  attribute: PathAttribute;
}

/** Enough for a large site's subtree; an expansion that finds more stops there (and says so). */
const MAX_EXPANDED = 100_000;

const WALK_FAILED =
  'the content below a recursive path list could not be walked: its paths, and what the connector holds below them, are sent alone; send it again once the repository answers';
const TRACKED_FAILED =
  'what the connector holds below a recursive path list could not be read: the paths are sent without it';

/** One environment an event acts on: its step, and the connector source that runs it. */
type Target = EventStep & { connectorSource: string };

/**
 * Carries out path lists: checked and filtered for repeats while the client waits, then, in the background
 * (the repository's webhook must not wait for a walk), expanded to the content below each path when recursive,
 * and handed to the connector as runs by ids of the source's environments, where every other run goes.
 *
 * Below a path is what the repository has there (walked, for indexing) and what the connector holds there
 * (its tracked ids, for indexing and removal alike): content AEM already deleted is no longer walked, but its
 * copies are still found and removed. A request whose expansion failed still acts on what it could find (the
 * named paths at least), logs an error, and is forgotten by the repeat filter, so that its retry is carried out.
 */
export class PathEvents {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: CmsSourceStore,
    private readonly runs: () => ConnectorRuns,
    private readonly sources: () => ConnectorSources,
    private readonly fetch: OutboundFetch,
    private readonly repeats: RepeatFilter,
    private readonly limits: RepositoryLimits,
    private readonly logger: Logger,
  ) {}

  /** Check the request (400 naming a bad path); false when it repeats a recent one and is ignored. */
  async accept(source: CmsSource, request: PathListRequest): Promise<boolean> {
    const { inside, outside } = contentPathsOf(source, request.paths, request.attribute);
    if (outside.length > 0)
      this.logger.info(
        { source: source.name, paths: outside.slice(0, 20), count: outside.length },
        'paths outside the root path are left out',
      );
    const identity: RequestIdentity = { source: source.id, ...request };
    if (!(await this.repeats.accept(identity))) {
      this.logger.info(
        { source: source.name, event: request.event, paths: request.paths.length },
        'a repeated path list is ignored',
      );
      return false;
    }
    if (inside.length === 0) return true;
    const work = this.carryOut(source, request, inside)
      .catch((error: Error) => {
        this.logger.error(
          { source: source.name, event: request.event, err: error },
          'a path list could not be carried out; it can be sent again at once',
        );
        return false;
      })
      .then((complete) => (complete ? undefined : this.forget(source, identity)));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return true;
  }

  /** Wait for the path lists being carried out (at stop, and in tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Runs by ids in each environment the event acts on; false when part of the expansion failed. */
  private async carryOut(source: CmsSource, request: PathListRequest, paths: string[]): Promise<boolean> {
    const targets = this.targetsOf(source, request.event);
    const walks = request.recursive && targets.some((target) => target.operation === 'INDEX_IDS');
    const walked = walks ? await this.attempt(source, request, WALK_FAILED, () => this.walkBelow(source, paths)) : [];
    let complete = walked !== null;
    for (const target of targets) {
      const tracked = request.recursive
        ? await this.attempt(source, request, TRACKED_FAILED, () => this.trackedBelow(target.connectorSource, paths))
        : [];
      complete &&= tracked !== null;
      const ids = new Set([...paths, ...(target.operation === 'INDEX_IDS' ? (walked ?? []) : []), ...(tracked ?? [])]);
      const ticket = await this.runs().trigger(
        target.connectorSource,
        target.operation,
        'api',
        this.bounded(source, ids),
      );
      this.logger.info(
        { source: source.name, event: request.event, run: ticket.runId, documents: ids.size },
        'path list sent to the connector',
      );
    }
    return complete;
  }

  /** What `find` answers; null, with an error logged, when it fails (the rest of the request goes on). */
  private async attempt(
    source: CmsSource,
    request: PathListRequest,
    message: string,
    find: () => Promise<string[]>,
  ): Promise<string[] | null> {
    try {
      return await find();
    } catch (error) {
      this.logger.error({ source: source.name, event: request.event, err: error }, message);
      return null;
    }
  }

  private targetsOf(source: CmsSource, event: PathEvent): Target[] {
    const environments = environmentsOf(source);
    return stepsOf(event).flatMap((step) => {
      const target = environments.find((e) => e.environment === step.environment);
      if (!target)
        this.logger.info(
          { source: source.name, event, environment: step.environment },
          'the source does not index this environment',
        );
      return target ? [{ ...step, connectorSource: target.connectorSource }] : [];
    });
  }

  /** The pages and assets the repository has below each path. */
  private async walkBelow(source: CmsSource, paths: string[]): Promise<string[]> {
    const client = await repositoryClient(this.store, source, this.fetch, this.limits);
    const found: string[] = [];
    for (const path of paths) {
      for await (const content of walkContent(client, path, source.contentTypes)) {
        found.push(content.path);
        // One past the limit, so that bounded() says the list was cut.
        if (found.length > MAX_EXPANDED) return found;
      }
    }
    return found;
  }

  /** What the connector source holds below each path (a tree deleted in the repository included). */
  private async trackedBelow(connectorSource: string, paths: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const path of paths)
      found.push(
        ...(await this.sources().trackedIds(connectorSource, {
          prefix: path === '/' ? '/' : `${path}/`,
          limit: MAX_EXPANDED,
        })),
      );
    return found;
  }

  private bounded(source: CmsSource, ids: Set<string>): string[] {
    const all = [...ids];
    if (all.length <= MAX_EXPANDED) return all;
    this.logger.warn(
      { source: source.name, limit: MAX_EXPANDED, found: all.length },
      'a recursive path list reached its limit; run the source in full for the rest',
    );
    return all.slice(0, MAX_EXPANDED);
  }

  private async forget(source: CmsSource, identity: RequestIdentity): Promise<void> {
    await this.repeats
      .forget(identity)
      .catch((error: Error) =>
        this.logger.warn(
          { source: source.name, err: error },
          'a path list that failed could not be forgotten: its retry within the window is ignored',
        ),
      );
  }
}
