import type { SiteExport, SiteImport } from '@vela/plugin-search/api';
import { validateAgainst } from 'vela/plugin';
import { siteSettingsBody } from '../schemas/common.js';
import { BUILTIN_ID, type InstanceStore } from './instance-store.js';
import type { SiteSettingsStore } from './site-settings-store.js';

/** The member of a site's export that holds its GenAI settings. */
const MEMBER = 'genai';

const memberSchema = {
  ...siteSettingsBody,
  required: ['enabled'],
  properties: { ...siteSettingsBody.properties, llmInstanceTitle: { type: 'string', maxLength: 200 } },
};

interface Member {
  enabled: boolean;
  llmInstanceId?: string;
  llmInstanceTitle?: string;
  systemPrompt?: string;
}

/**
 * A site's GenAI settings into its export (a tap of search.siteExport), when it has its own: the LLM instance by id
 * and title, never the instance itself (its API key stays on this install).
 */
export function exportSiteSettings(
  settings: SiteSettingsStore,
  instances: InstanceStore,
  { siteId, entry }: SiteExport,
) {
  const mine = settings.forSite(siteId);
  if (!mine.custom) return;
  entry[MEMBER] = {
    enabled: mine.enabled,
    llmInstanceId: mine.llmInstanceId,
    llmInstanceTitle: instances.find(mine.llmInstanceId)?.title ?? null,
    systemPrompt: mine.systemPrompt,
  };
}

/**
 * A site's GenAI settings from its export (a tap of search.siteImport): the defaults when the entry has none. The
 * instance is found by id, else by title; when this install has neither, the site keeps the built-in instance,
 * which costs nothing, and the import says so.
 */
export async function importSiteSettings(
  settings: SiteSettingsStore,
  instances: InstanceStore,
  { siteId, entry, warnings }: SiteImport,
): Promise<void> {
  const given = entry[MEMBER];
  if (given === undefined || given === null) {
    if (settings.forSite(siteId).custom) await settings.reset(siteId);
    return;
  }
  const checked = validateAgainst<Member>(memberSchema, given, { root: MEMBER });
  if (!checked.valid) {
    await settings.reset(siteId);
    warnings.push(`${MEMBER}: not restored, the site has the default GenAI settings (${checked.problems.join('; ')})`);
    return;
  }
  const { enabled, llmInstanceId, llmInstanceTitle, systemPrompt } = checked.value;
  const instance =
    (llmInstanceId && instances.find(llmInstanceId)) ||
    (llmInstanceTitle ? instances.list().find((i) => i.title === llmInstanceTitle) : undefined);
  if (llmInstanceId && !instance)
    warnings.push(
      `${MEMBER}: LLM instance ${JSON.stringify(llmInstanceTitle ?? llmInstanceId)} (id ${llmInstanceId}) does not exist here: the site chats with the built-in instance until another is chosen`,
    );
  // One write, a member left out at its default: chat never runs on the settings of neither file nor defaults.
  await settings.save(siteId, {
    enabled,
    llmInstanceId: instance?.id ?? BUILTIN_ID,
    systemPrompt: systemPrompt ?? '',
  });
}
