import type { Logger } from '../logger.js';

type Sections = Record<string, Record<string, unknown>>;

/** What this reads of a plugin's manifest. */
interface FormerConfigOwner {
  name: string;
  formerConfig?: readonly string[];
}

/**
 * The plugins' config sections with settings moved to where they live now. A plugin split out of another lists
 * the old places in `formerConfig` (`search.ocr`): a value found there is removed from the old section (whose
 * schema no longer knows it) and becomes the new plugin's section when the operator has not written that one,
 * so a config file written for the earlier layout starts unchanged. Either way the operator is told where the
 * setting belongs now.
 */
export function moveFormerConfig(
  sections: Sections,
  manifests: readonly FormerConfigOwner[],
  logger: Logger,
): Sections {
  const out: Sections = { ...sections };
  for (const manifest of manifests) {
    for (const former of manifest.formerConfig ?? []) {
      const [owner, member] = former.split('.') as [string, string];
      const section = out[owner];
      if (!section || !(member in section)) continue;
      const { [member]: value, ...rest } = section;
      out[owner] = rest;
      const own = out[manifest.name];
      if (own && Object.keys(own).length > 0) {
        logger.warn(
          `plugins.${former} is ignored: plugins.${manifest.name} is set, and is where these settings belong now`,
        );
        continue;
      }
      out[manifest.name] = value as Record<string, unknown>;
      logger.warn(
        `plugins.${former} is read as plugins.${manifest.name}, where these settings belong now; move it there`,
      );
    }
  }
  return out;
}
