// npm run import:openfootball as an operator runs it, on a database of the test file's own: files to import are
// written to a directory of the file's own, and each run is a process of its own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };
import { freshDatabase, type TestDatabase } from './db.ts';
import { runScript } from './process.ts';

/** The mini cup under another name, without any result (a fixtures file) or with them (a results file). */
export const cup = (name: string, results: boolean) => ({
  name,
  matches: mini.matches.map((m) => (results ? m : { ...m, score: undefined })),
});

/** Called at a file's top level: a migrated database and a directory, made before the file's tests, removed after. */
export function importCommand() {
  const cli = {
    t: undefined as unknown as TestDatabase,
    dir: '',
    /** Writes `content` to dir/<path> and returns the full path. */
    file(path: string, content: object): string {
      const full = join(cli.dir, path);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, JSON.stringify(content));
      return full;
    },
    async run(...args: string[]) {
      const env = {
        DATABASE_URL: cli.t.target.provider === 'sqlite' ? `file:${cli.t.target.file}` : cli.t.target.url,
        JWT_SECRET: 'j'.repeat(40),
      };
      const child = runScript('scripts/import-openfootball.ts', env, args);
      const code = await child.exited;
      return { code, output: child.output() };
    },
    tournamentsNamed: (name: string) =>
      cli.t.db.prisma.tournament.findMany({ where: { name }, select: { externalId: true } }),
  };
  beforeAll(async () => {
    cli.t = await freshDatabase();
    cli.dir = mkdtempSync(join(tmpdir(), 'prode-import-cli-'));
  });
  afterAll(async () => {
    await cli.t.drop();
    rmSync(cli.dir, { recursive: true, force: true });
  });
  return cli;
}
