import type { GenaiEmbeddings } from '@vela/plugin-genai/api';
import type { SiteExport, SiteImport } from '@vela/plugin-search/api';
import { validateAgainst } from 'vela/plugin';
import { settingsBody } from '../routes/semantic-schemas.js';
import {
  BUILTIN_EMBEDDER,
  DEFAULT_SETTINGS,
  type SemanticSettingsPatch,
  type SemanticSettingsStore,
} from './settings-store.js';

/** The member of a site's export that holds its semantic settings. */
const MEMBER = 'semantic';

const memberSchema = {
  ...settingsBody,
  required: ['enabled'],
  properties: { ...settingsBody.properties, embedderTitle: { type: ['string', 'null'], maxLength: 200 } },
};

/** The LLM instances that offer embeddings, or none without the genai plugin. */
type Instances = () => ReturnType<GenaiEmbeddings['instances']>;

/** A site's semantic settings into its export (a tap of search.siteExport), when it has its own. */
export function exportSemanticSettings(
  settings: SemanticSettingsStore,
  instances: Instances,
  { siteId, entry }: SiteExport,
) {
  const { custom, updatedAt: _updatedAt, ...mine } = settings.forSite(siteId);
  if (!custom) return;
  const embedderTitle =
    mine.embedder === BUILTIN_EMBEDDER ? null : (instances().find((i) => i.id === mine.embedder)?.title ?? null);
  entry[MEMBER] = { ...mine, embedderTitle };
}

/**
 * A site's semantic settings from its export (a tap of search.siteImport): the defaults when the entry has none. An
 * LLM instance as embedder is found by id, else by title; when this install has neither, the site embeds with the
 * built-in embedder, and the import says so.
 */
export async function importSemanticSettings(
  settings: SemanticSettingsStore,
  instances: Instances,
  { siteId, entry, warnings }: SiteImport,
): Promise<void> {
  const given = entry[MEMBER];
  if (given === undefined || given === null) {
    if (settings.forSite(siteId).custom) await settings.reset(siteId);
    return;
  }
  const checked = validateAgainst<SemanticSettingsPatch & { embedderTitle?: string | null }>(memberSchema, given, {
    root: MEMBER,
  });
  const problems = checked.valid ? overlapProblem(checked.value) : checked.problems;
  if (problems.length > 0) {
    await settings.reset(siteId);
    warnings.push(`${MEMBER}: not restored, the site has the default semantic settings (${problems.join('; ')})`);
    return;
  }
  const { embedderTitle, ...patch } = checked.value;
  if (patch.embedder !== undefined && patch.embedder !== BUILTIN_EMBEDDER) {
    const known = instances();
    const instance =
      known.find((i) => i.id === patch.embedder) ??
      (embedderTitle ? known.find((i) => i.title === embedderTitle) : undefined);
    if (!instance)
      warnings.push(
        `${MEMBER}: LLM instance ${JSON.stringify(embedderTitle ?? patch.embedder)} (id ${patch.embedder}) does not exist here or offers no embeddings: the site embeds with the built-in embedder until another is chosen`,
      );
    patch.embedder = instance?.id ?? BUILTIN_EMBEDDER;
  }
  // One write, what the member leaves out at its default: the indexer never sees the site without settings between.
  await settings.save(siteId, { ...DEFAULT_SETTINGS, ...patch });
}

function overlapProblem({ passageChars, passageOverlap }: SemanticSettingsPatch): string[] {
  if (passageChars === undefined || passageOverlap === undefined || passageOverlap * 2 <= passageChars) return [];
  return [`${MEMBER}.passageOverlap must be at most half of passageChars (${passageChars}), got ${passageOverlap}`];
}
