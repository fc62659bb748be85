// `npm run db:migrate`: applies the pending committed migrations to the configured database.
import { ConfigError, ensureWritableDir, loadConfig } from '../src/config.ts';
import { describeTarget } from '../src/db/adapters.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';

try {
  const config = loadConfig();
  if (config.database.provider === 'sqlite') ensureWritableDir(config.dataDir);
  const applied = await migrateDatabase(config.database);
  console.log(
    applied.length
      ? `db:migrate: applied ${applied.join(', ')} to ${describeTarget(config.database)}`
      : `db:migrate: ${describeTarget(config.database)} is up to date`,
  );
  process.exit(0);
} catch (err) {
  console.error(`db:migrate: ${err instanceof ConfigError ? '' : 'failed: '}${(err as Error).message}`);
  process.exit(1);
}
