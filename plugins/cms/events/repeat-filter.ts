import { createHash } from 'node:crypto';
import type { Database } from 'vela/plugin';

const TABLE = 'cms_requests';

/** What makes two path-list requests the same request. */
export interface RequestIdentity {
  source: string;
  event: string;
  recursive: boolean;
  attribute: string;
  paths: readonly string[];
}

/**
 * Ignores a path-list request that repeats one accepted less than `windowMs` ago: repositories send the same
 * event several times (a page saved twice, an activation replicated to several publishers). Each accepted
 * request is a row, so the window holds across a restart and between processes sharing the database; the
 * insert on its primary key decides between two requests at once.
 */
export class RepeatFilter {
  constructor(
    private readonly db: Database,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the request is to be carried out (and is remembered); false for a repeat. */
  async accept(request: RequestIdentity): Promise<boolean> {
    if (this.windowMs <= 0) return true;
    const key = keyOf(request);
    const now = this.now();
    // Expired requests, this one's included, make room; the others are pruned on the way.
    await this.db(TABLE)
      .where('accepted_at', '<=', now - this.windowMs)
      .delete();
    try {
      await this.db(TABLE).insert({ request_key: key, accepted_at: now });
      return true;
    } catch (error) {
      if (await this.db(TABLE).where({ request_key: key }).first()) return false;
      throw error;
    }
  }

  /** Forget an accepted request that could not be carried out, so that its retry is not taken for a repeat. */
  async forget(request: RequestIdentity): Promise<void> {
    if (this.windowMs <= 0) return;
    await this.db(TABLE)
      .where({ request_key: keyOf(request) })
      .delete();
  }
}

/** The same set of paths in any order, with the same source, event, recursion and attribute. */
function keyOf(request: RequestIdentity): string {
  const paths = [...new Set(request.paths)].sort();
  return createHash('sha256')
    .update(JSON.stringify([request.source, request.event, request.recursive, request.attribute, paths]))
    .digest('hex');
}
