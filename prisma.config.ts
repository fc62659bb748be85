import { resolve } from 'node:path';
import { defineConfig } from 'prisma/config';

// The stock CLI on the database the service is configured for (DATABASE_URL; unset: SQLite at DATA_DIR/prode.db),
// with that provider's schema and migrations, so `npx prisma migrate status` and friends look where `npm run
// db:migrate` does. They need Prisma's native schema engine, which `npm install` downloads where it can; where it
// cannot, `npm run db:migrate -- --status` gives the same answer through the wasm engine (docs/design.md).
const url = process.env.DATABASE_URL?.trim() || `file:${resolve(process.env.DATA_DIR || './data', 'prode.db')}`;
const provider = /^postgres(ql)?:/.test(url) ? 'postgresql' : 'sqlite';

export default defineConfig({
  schema: provider === 'sqlite' ? 'prisma/schema.prisma' : 'prisma/postgresql/schema.prisma',
  migrations: { path: `prisma/migrations/${provider}` },
  datasource: { url },
});
