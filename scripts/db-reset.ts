// `npm run db:reset`: throws the database away and makes it again with the demo data, for a developer who wants
// the demo back as it shipped. Never in production. SQLite: the file (and its WAL) is removed. PostgreSQL: every
// table of the service's schemas is dropped, so it asks for --yes, naming the database it would empty.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { setPasswordHashCost } from '../src/auth/passwords.ts';
import { engineFor } from '../src/engine/index.ts';
import { ConfigError, ensureWritableDir, loadConfig } from '../src/config.ts';
import { describeTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { seedDemo } from '../prisma/seed/demo-seed.ts';

function fail(message: string): never {
  console.error(`db:reset: ${message}`);
  process.exit(1);
}

try {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--yes');
  if (unknown.length) fail(`unknown argument ${unknown[0]} (usage: npm run db:reset [-- --yes])`);
  const config = loadConfig();
  // The store opened as the server would open it: ENGINE=plain leaves the speed-only parts out here too.
  const engine = engineFor(config).db;
  if (config.env === 'production') fail('refused with NODE_ENV=production: it deletes every row');
  const target = config.database;
  if (target.provider === 'sqlite') {
    ensureWritableDir(config.dataDir);
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${target.file}${suffix}`, { force: true });
  } else {
    if (!args.includes('--yes'))
      fail(`this drops every table of ${describeTarget(target)}: run npm run db:reset -- --yes to go on`);
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query('DROP SCHEMA IF EXISTS public CASCADE');
      await client.query('DROP SCHEMA IF EXISTS prode_meta CASCADE');
      await client.query('CREATE SCHEMA public');
    } finally {
      await client.end();
    }
  }
  setPasswordHashCost(config.passwordHashCost);
  await migrateDatabase(target, { engine });
  const db = await openDatabase(target, { engine });
  const { summary } = await seedDemo(db.prisma);
  await db.close();
  console.log(`db:reset: ${describeTarget(target)} made again with the demo data: ${summary}`);
  process.exit(0);
} catch (err) {
  const line = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
  fail(`${err instanceof ConfigError ? 'configuration error: ' : 'failed: '}${line.trim()}`);
}
