// `npm run db:seed`: migrates, then loads the demo data into an empty database (refuses a non-empty one).
import { setPasswordHashCost } from '../src/auth/passwords.ts';
import { engineFor } from '../src/engine/index.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { seedDemo } from '../prisma/seed/demo-seed.ts';

try {
  const config = loadConfig();
  // The store opened as the server would open it: ENGINE=plain leaves the speed-only parts out here too.
  const engine = engineFor(config).db;
  setPasswordHashCost(config.passwordHashCost);
  await migrateDatabase(config.database, { engine });
  const db = await openDatabase(config.database, { engine });
  const companies = await db.prisma.company.count();
  if (companies > 0) {
    console.log(
      `db:seed: ${db.description} already holds ${companies} companies; the demo data goes only into an empty database`,
    );
  } else {
    const { summary } = await seedDemo(db.prisma);
    console.log(`db:seed: seeded ${db.description}: ${summary}`);
  }
  await db.close();
  process.exit(0);
} catch (err) {
  const line = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
  console.error(`db:seed: ${err instanceof ConfigError ? 'configuration error: ' : 'failed: '}${line.trim()}`);
  process.exit(1);
}
