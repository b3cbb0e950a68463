import type { Knex } from 'vela/plugin';

const INDEX = 'search_sites_name_key';

interface SiteName {
  id: string;
  name: string;
}

/**
 * Site names are unique ignoring case. Each process checks that in memory, but two processes (or, before
 * this version, two requests at once) could both pass the check with "News" and "news"; this index makes
 * the database refuse the second, which the store answers as 409 site_exists.
 */
export async function up(db: Knex): Promise<void> {
  await renameCaselessDuplicates(db);
  await db.raw(`create unique index ${INDEX} on search_sites (lower(name))`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index if exists ${INDEX}`);
}

/**
 * A name stored twice ignoring case (only a race could do it) would stop the index from being built, and
 * the start with it: the later sites get a free name `<name>-2`, `-3`, ... instead.
 */
async function renameCaselessDuplicates(db: Knex): Promise<void> {
  const sites: SiteName[] = await db('search_sites').select('id', 'name').orderBy('created_at').orderBy('id');
  const taken = new Set(sites.map((s) => s.name.toLowerCase()));
  const kept = new Set<string>();
  for (const site of sites) {
    const key = site.name.toLowerCase();
    if (!kept.has(key)) {
      kept.add(key);
      continue;
    }
    let n = 2;
    while (taken.has(`${key.slice(0, 96)}-${n}`)) n++;
    const name = `${site.name.slice(0, 96)}-${n}`;
    taken.add(name.toLowerCase());
    await db('search_sites').where({ id: site.id }).update({ name });
  }
}
