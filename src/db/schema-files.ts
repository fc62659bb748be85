import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Provider = 'sqlite' | 'postgresql';
export const PROVIDERS: readonly Provider[] = ['sqlite', 'postgresql'];

const root = fileURLToPath(new URL('../../', import.meta.url));

export const paths = {
  root,
  sourceSchema: `${root}prisma/schema.prisma`,
  schema: (p: Provider) => (p === 'sqlite' ? `${root}prisma/schema.prisma` : `${root}prisma/postgresql/schema.prisma`),
  migrations: (p: Provider) => `${root}prisma/migrations/${p}`,
};

const DERIVED_HEADER =
  '// GENERATED from prisma/schema.prisma by `npm run prisma:generate`. Do not edit: edit the source and rerun.\n';

/** The PostgreSQL schema is the SQLite source with another provider and client output; nothing else differs. */
export function derivePostgresSchema(source: string): string {
  const providerLine = /(datasource db \{\s*provider\s*=\s*)"sqlite"/;
  const outputLine = /(output\s*=\s*)"\.\.\/src\/generated\/sqlite"/;
  if (!providerLine.test(source) || !outputLine.test(source)) {
    throw new Error('prisma/schema.prisma: expected provider "sqlite" and output "../src/generated/sqlite"');
  }
  return (
    DERIVED_HEADER +
    source.replace(providerLine, '$1"postgresql"').replace(outputLine, '$1"../../src/generated/postgresql"')
  );
}

export function readSchema(p: Provider): string {
  return readFileSync(paths.schema(p), 'utf8');
}
