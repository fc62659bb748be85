// `npm run db:migration -- <name>`: writes the next migration for both providers from the schema change,
// by diffing the snapshot of the last migration against the current schema (no database involved).
import { mkdirSync, writeFileSync } from 'node:fs';
import { diffSchemas, lockfileContent, trackNewTables, readSnapshot, snapshotPath } from '../src/db/migrations.ts';
import { derivePostgresSchema, paths, PROVIDERS, readSchema, type Provider } from '../src/db/schema-files.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) {
  console.error('usage: npm run db:migration -- <name>   (lowercase letters, digits and underscores)');
  process.exit(2);
}

const current: Record<Provider, string> = {
  sqlite: readSchema('sqlite'),
  postgresql: derivePostgresSchema(readSchema('sqlite')),
};
const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
const folder = `${stamp}_${name}`;

const diffs = await Promise.all(PROVIDERS.map((p) => diffSchemas(readSnapshot(p), current[p])));
const scripts = PROVIDERS.map((p, i) => trackNewTables(diffs[i], p));
if (scripts.every((s) => s.trim() === '')) {
  console.log('db:migration: the schema has not changed since the last migration; nothing written');
  process.exit(0);
}
PROVIDERS.forEach((p, i) => {
  const dir = `${paths.migrations(p)}/${folder}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/migration.sql`, scripts[i]);
  writeFileSync(`${paths.migrations(p)}/migration_lock.toml`, lockfileContent(p));
  writeFileSync(snapshotPath(p), current[p]);
  console.log(`db:migration: wrote prisma/migrations/${p}/${folder}/migration.sql`);
});
process.exit(0);
