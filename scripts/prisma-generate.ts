// Derives prisma/postgresql/schema.prisma from the source schema and generates both Prisma clients.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { derivePostgresSchema, paths, PROVIDERS } from '../src/db/schema-files.ts';

const derived = derivePostgresSchema(readFileSync(paths.sourceSchema, 'utf8'));
mkdirSync(dirname(paths.schema('postgresql')), { recursive: true });
writeFileSync(paths.schema('postgresql'), derived);

// `prisma generate` never runs the native schema engine, yet the CLI downloads it first when it is missing, and
// that download is impossible offline. Where `npm install` could not fetch it, name any existing file instead:
// only for this command, so that wherever the engine is installed the CLI's own commands keep working with it.
const enginesDir = `${paths.root}node_modules/@prisma/engines`;
const nativeEngine = existsSync(enginesDir) && readdirSync(enginesDir).some((f) => f.startsWith('schema-engine-'));
if (!nativeEngine) process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const prismaCli = `${paths.root}node_modules/prisma/build/index.js`;
for (const provider of PROVIDERS) {
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', paths.schema(provider)], {
    cwd: paths.root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
console.log('prisma: derived prisma/postgresql/schema.prisma and generated src/generated/{sqlite,postgresql}');
