// A clone holds everything it refers to: no tracked file (README blocks, --help texts, docs, code comments, tests)
// names a path outside the repository, so every link opens and every example runs in a fresh checkout.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const SELF = relative(ROOT, new URL(import.meta.url).pathname);

/** Names that only ever lived outside the repository: the machine's workspace and the documents kept there. */
const OUTSIDE = [/\/work\//, /\bshared\/(spec|data|DESIGN)/, /platform-interface/, /\bDESIGN\.md/];

/** A relative path climbing at least one level (`../x`, `../../x/y.json`), not a URL's `/docs/../x`. */
const CLIMB = /(?<![\w/.-])(?:\.\.\/)+[\w@.-]*(?:\/[\w@.-]+)*/g;

/**
 * Files that quote a Prisma schema's generator output (schema snapshots copy their schema's text; schema-files.ts
 * derives one schema from the other): those paths are read from the schema's folder, not from the quoting file's.
 */
const READ_FROM: Record<string, string[]> = {
  'prisma/migrations/sqlite/schema.snapshot.prisma': ['prisma'],
  'prisma/migrations/postgresql/schema.snapshot.prisma': ['prisma/postgresql'],
  'src/db/schema-files.ts': ['prisma', 'prisma/postgresql'],
};

/** Text that looks like a path and is not one of ours: an attack string the hostile-input tests send. */
const NOT_PATHS: Record<string, string[]> = { 'test/security/hostile-input/values.ts': ['../../etc/passwd'] };

const inside = (path: string) => {
  const rel = relative(ROOT, path);
  return !rel.startsWith('..') && !rel.startsWith('/');
};

/**
 * Where a `../` path found in `file` escapes the repository: read from the file's folder (an import, a Markdown
 * link) it must stay inside and exist, or read from the root (a command in a README block or a --help text, a
 * path joined to the root in a test) it must stay inside.
 */
export function escapes(file: string, path: string): boolean {
  if (NOT_PATHS[file]?.includes(path)) return false;
  for (const folder of [dirname(file), ...(READ_FROM[file] ?? [])]) {
    const fromFile = resolve(ROOT, folder, path);
    if (inside(fromFile) && existsSync(fromFile)) return false;
  }
  return !inside(resolve(ROOT, path));
}

function trackedTextFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  return files.filter((f) => {
    if (!f || f === 'package-lock.json' || f === SELF || !existsSync(join(ROOT, f))) return false;
    return !readFileSync(join(ROOT, f)).subarray(0, 8000).includes(0); // binary
  });
}

describe('the repository is self-contained', () => {
  it('tells a path that escapes from one that does not', () => {
    expect(escapes('README.md', '../shared/data/openfootball/2026-worldcup.json')).toBe(true);
    expect(escapes('scripts/import-openfootball.ts', '../shared/data/openfootball/2026-worldcup.json')).toBe(true);
    expect(escapes('test/e2e/world-cup.test.ts', '../shared/data/x.json')).toBe(true);
    expect(escapes('docs/design.md', '../../shared/DESIGN.md')).toBe(true);
    expect(escapes('docs/rest.md', '../src/rest/route-table.ts')).toBe(false);
    expect(escapes('test/security/tenant-isolation/fixture.ts', '../../../src/domain/defaults.ts')).toBe(false);
    expect(escapes('prisma/migrations/sqlite/schema.snapshot.prisma', '../src/generated/sqlite')).toBe(false);
  });

  it('no tracked file names a path outside it', () => {
    const files = trackedTextFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/interface.md', 'src/rest/openapi.ts']));
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (OUTSIDE.some((name) => name.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
        for (const [path] of line.matchAll(CLIMB)) if (escapes(file, path)) found.push(`${file}:${i + 1}: ${path}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("every relative Markdown link opens a file of the repository (the README's to docs/interface.md too)", () => {
    const broken: string[] = [];
    for (const file of trackedTextFiles().filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue; // a URL or an anchor of the same page
        const path = resolve(ROOT, dirname(file), target.split('#')[0]);
        if (!inside(path) || !existsSync(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](docs/interface.md)');
  });

  it('the World Cup file the README imports is in the repository, with its credit', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const [, path] = /npm run import:openfootball -- (\S+\.json)/.exec(readme)!;
    expect(existsSync(join(ROOT, path)), path).toBe(true);
    const credit = readFileSync(join(ROOT, dirname(path), 'README.md'), 'utf8');
    expect(credit).toContain('https://github.com/openfootball');
    expect(credit).toContain('CC0');
  });
});
