// The docs say what is true now; how it came to be, with its dates and figures, lives in docs/decisions/ (one
// record per choice). This fails on diary wording in README.md and docs/*.md, and in the code's comments and test
// names, naming each file:line.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const ORDINALS = 'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth';

/** Wording that dates a text or tells its history instead of the current state. */
const DIARY: { name: string; pattern: RegExp }[] = [
  // A bare calendar date; an example timestamp (`2026-06-11T19:00:00.000Z`) or a migration name is not one.
  { name: 'a date', pattern: /(?<![\w-])20\d\d-\d\d-\d\d(?![\w-])/ },
  {
    name: 'a work session',
    pattern: new RegExp(`\\b(${ORDINALS}|this|that|last|same) session\\b`, 'i'),
  },
  { name: '"fails today"', pattern: /\bfails today\b/i },
  { name: '"used to"', pattern: /\bused to\b/i },
  { name: '"no longer"', pattern: /\bno longer\b/i },
];

/**
 * README.md and the top-level docs. docs/decisions/ is the one place history belongs (and docs/schema/ holds
 * released schemas).
 */
function checkedFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

export function diaryLines(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { name, pattern } of DIARY) {
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${name}: ${line.trim()}`);
    }
  });
  return found;
}

describe('the docs carry no diary', () => {
  it('tells diary wording from plain text', () => {
    const diary = [
      'Measured on 2026-11-24 with the cache on.',
      'Rerun in the tenth session.',
      'As measured this session, the answer',
      'A test that fails today.',
      'It used to cost two aggregates.',
      'Queries no longer pile up.',
    ];
    for (const line of diary) expect(diaryLines('x.md', line), line).toHaveLength(1);
    const plain = [
      'Timestamps look like `2026-06-11T19:00:00.000Z`.',
      'The migration `20261123051500_data_version` adds the counters.',
      'A login session ends when its token expires.',
      'The areas group people and rank groups.',
    ];
    for (const line of plain) expect(diaryLines('x.md', line), line).toEqual([]);
    expect(diaryLines('docs/a.md', 'one\nsince the fifth session\n')).toEqual([
      'docs/a.md:2: a work session: since the fifth session',
    ]);
  });

  it('README.md and docs/*.md say what is true now, without dates or history', () => {
    const files = checkedFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/performance.md', 'docs/security.md']));
    const found = files.flatMap((file) => diaryLines(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found, `diary wording (history goes to docs/decisions/):\n${found.join('\n')}`).toEqual([]);
  });
});

/**
 * Code says what a thing does and why; it also says "no longer" and "used to" of states ("the token user no longer
 * exists", "fragments used to multiply work"), so comments and test names are held to the dating words only.
 */
const CODE_DIARY: { name: string; pattern: RegExp }[] = [
  // Outside quotes and backticks: a date in a string or an example is data.
  { name: 'a date', pattern: /(?<![\w\-'"`])20\d\d-\d\d-\d\d(?![\w\-'"`])/ },
  { name: 'a work session', pattern: new RegExp(`\\b(${ORDINALS}|last|same) session\\b`, 'i') },
  { name: '"fails today"', pattern: /\bfails today\b/i },
  { name: 'how it was', pattern: /\bused to (be|keep|take|cost|run|read|write|answer|return|make|have)\b/i },
];

const COMMENT = /^\s*(\/\/|\/\*|\*)(.*)$/;
const TEST_NAME = /\b(?:it|test|describe)(?:\.\w+)?\(\s*(['"`])(.+?)\1/;

/** The comment lines and the test names of a source file, each checked against the dating words. */
export function codeDiaryLines(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const said = [COMMENT.exec(line)?.[2], TEST_NAME.exec(line)?.[2]].filter((t): t is string => t !== undefined);
    for (const words of said) {
      for (const { name, pattern } of CODE_DIARY) {
        if (pattern.test(words)) found.push(`${file}:${i + 1}: ${name}: ${line.trim()}`);
      }
    }
  });
  return found;
}

describe('the code carries no diary', () => {
  it('tells a dated comment or test name from plain code', () => {
    const diary = [
      '// Measured on 2026-11-24: 1.7x.',
      ' * Added in the ninth session.',
      "  it('a case that fails today', () => {",
      '// A stolen token used to keep working for days.',
    ];
    for (const line of diary) expect(codeDiaryLines('x.ts', line), line).toHaveLength(1);
    const plain = [
      "const kickoff = '2026-06-11';",
      '// A calendar date like "2026-06-11".',
      '// The token user no longer exists.',
      '// Aliases and fragments used to multiply work are counted.',
      "  it('ends every session of the caller, this one included', () => {",
    ];
    for (const line of plain) expect(codeDiaryLines('x.ts', line), line).toEqual([]);
  });

  it('comments and test names in src/, test/, bench/, scripts/ and prisma/ say what is true now', () => {
    const files = execFileSync('git', ['ls-files', '--', 'src', 'test', 'bench', 'scripts', 'prisma'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\.(ts|js|cjs|mjs)$/.test(f) && !f.includes('/generated/') && f !== 'test/docs/no-diary.test.ts');
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) => codeDiaryLines(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found, `diary wording in code (history goes to docs/decisions/):\n${found.join('\n')}`).toEqual([]);
  });
});

describe('the decision records', () => {
  it('each has its sections and a line in the index', () => {
    const folder = join(ROOT, 'docs/decisions');
    const records = readdirSync(folder).filter((f) => /^\d{4}-[a-z0-9-]+\.md$/.test(f));
    expect(records.length).toBeGreaterThan(20);
    const index = readFileSync(join(folder, 'README.md'), 'utf8');
    const problems: string[] = [];
    for (const file of records) {
      const text = readFileSync(join(folder, file), 'utf8');
      if (!text.startsWith(`# ${file.slice(0, 4)}. `)) problems.push(`${file}: the title does not carry its number`);
      for (const section of ['Context', 'Decision', 'Effect', 'Consequences']) {
        if (!text.includes(`\n## ${section}\n`)) problems.push(`${file}: no "${section}" section`);
      }
      if (!index.includes(`](${file})`)) problems.push(`${file}: not in docs/decisions/README.md`);
    }
    expect(problems).toEqual([]);
  });
});
