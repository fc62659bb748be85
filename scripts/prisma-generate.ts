// Derives prisma/postgresql/schema.prisma from the source schema and generates both Prisma clients.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { derivePostgresSchema, paths, PROVIDERS } from '../src/db/schema-files.ts';

const derived = derivePostgresSchema(readFileSync(paths.sourceSchema, 'utf8'));
mkdirSync(dirname(paths.schema('postgresql')), { recursive: true });
writeFileSync(paths.schema('postgresql'), derived);

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const prismaCli = `${paths.root}node_modules/prisma/build/index.js`;
for (const provider of PROVIDERS) {
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', paths.schema(provider)], {
    cwd: paths.root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
console.log('prisma: derived prisma/postgresql/schema.prisma and generated src/generated/{sqlite,postgresql}');
