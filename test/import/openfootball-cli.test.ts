// npm run import:openfootball as an operator runs it, on a real database: which tournament a file is (its content
// decides, not its file name) and the command line's options.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { defaultExternalId } from '../../src/import/external-id.ts';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';
import { ROOT, runScript } from '../helpers/process.ts';

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await freshDatabase();
  dir = mkdtempSync(join(tmpdir(), 'prode-import-cli-'));
});
afterAll(async () => {
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `content` to dir/<path> and returns the full path. */
function file(path: string, content: object): string {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, JSON.stringify(content));
  return full;
}

async function run(...args: string[]) {
  const env = {
    DATABASE_URL: t.target.provider === 'sqlite' ? `file:${t.target.file}` : t.target.url,
    JWT_SECRET: 'j'.repeat(40),
  };
  const child = runScript('scripts/import-openfootball.ts', env, args);
  const code = await child.exited;
  return { code, output: child.output() };
}

/** The mini cup under another name, without any result (a fixtures file) or with them (a results file). */
const cup = (name: string, results: boolean) => ({
  name,
  matches: mini.matches.map((m) => (results ? m : { ...m, score: undefined })),
});

const tournamentsNamed = (name: string) =>
  t.db.prisma.tournament.findMany({ where: { name }, select: { externalId: true } });

describe('defaultExternalId', () => {
  it.each([
    ['World Cup 2026', 'openfootball:world-cup-2026'],
    ['  Copa América 2024 ', 'openfootball:copa-america-2024'],
    ['UEFA Euro 2024 (Germany)', 'openfootball:uefa-euro-2024-germany'],
    ['Première Ligue 2025/26', 'openfootball:premiere-ligue-2025-26'],
    ['x'.repeat(200), `openfootball:${'x'.repeat(80)}`],
    ['世界杯', null],
    ['!!!', null],
  ])('%s is %s', (name, id) => {
    expect(defaultExternalId(name)).toBe(id);
  });
});

describe('which tournament a file is', () => {
  it('two files both named worldcup.json, for two different tournaments, give two tournaments', async () => {
    const a = await run(file('2022/worldcup.json', cup('Test Cup 2022', true)));
    const b = await run(file('2026/worldcup.json', cup('Test Cup 2026', true)));
    expect(a.code, a.output).toBe(0);
    expect(b.code, b.output).toBe(0);
    expect(a.output).toMatch(/"Test Cup 2022" \(openfootball:test-cup-2022\) created; rounds \+3/);
    expect(b.output).toMatch(/"Test Cup 2026" \(openfootball:test-cup-2026\) created; rounds \+3/);
    expect(await tournamentsNamed('Test Cup 2022')).toEqual([{ externalId: 'openfootball:test-cup-2022' }]);
    expect(await tournamentsNamed('Test Cup 2026')).toEqual([{ externalId: 'openfootball:test-cup-2026' }]);
  });

  it('a fixtures file and a later results file naming the same tournament give one, with the results', async () => {
    const fixtures = await run(file('fixtures.json', cup('Results Cup', false)));
    expect(fixtures.code, fixtures.output).toBe(0);
    expect(fixtures.output).toMatch(/\(openfootball:results-cup\) created; .* matches \+7 ~0 =0; 0 results new/);
    const results = await run(file('results-final.json', cup('Results Cup', true)));
    expect(results.code, results.output).toBe(0);
    expect(results.output).toMatch(/\(openfootball:results-cup\) unchanged; .* matches \+0 ~5 =2; 5 results new/);
    expect(await tournamentsNamed('Results Cup')).toHaveLength(1);
    const shootout = await t.db.prisma.match.findUniqueOrThrow({
      where: { externalId: 'openfootball:results-cup:match:m11' },
    });
    expect(shootout).toMatchObject({ status: 'FINISHED', homeTeamPenaltyGoals: 5, penaltiesWinner: 'home' });
  });

  it('--external-id overrides the name: the same file under two ids is two tournaments', async () => {
    const path = file('override.json', cup('Override Cup', true));
    expect((await run(path)).code).toBe(0);
    const other = await run(path, '--external-id', 'test:override-b');
    expect(other.code, other.output).toBe(0);
    expect(other.output).toMatch(/"Override Cup" \(test:override-b\) created/);
    expect((await tournamentsNamed('Override Cup')).map((x) => x.externalId).sort()).toEqual([
      'openfootball:override-cup',
      'test:override-b',
    ]);
  });

  it('a tournament imported under its file name by an earlier version is still the same tournament', async () => {
    // Earlier versions gave "openfootball:<file name>"; the name in the file tells it is this tournament.
    const path = file('legacy/2030-worldcup.json', cup('Legacy Cup', false));
    expect((await run(path, '--external-id', 'openfootball:2030-worldcup')).code).toBe(0);
    const again = await run(file('legacy/2030-worldcup.json', cup('Legacy Cup', true)));
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/"Legacy Cup" \(openfootball:2030-worldcup\) unchanged; .* matches \+0 ~5 =2/);
    expect(await tournamentsNamed('Legacy Cup')).toEqual([{ externalId: 'openfootball:2030-worldcup' }]);
    // Another tournament in a file of that name is not it.
    const other = await run(file('legacy/2030-worldcup.json', cup('Legacy Cup Women', true)));
    expect(other.output).toMatch(/\(openfootball:legacy-cup-women\) created/);
  });

  it('refuses an id the rules do not allow, and a name with nothing to derive an id from', async () => {
    const bad = await run(file('bad-id.json', cup('Bad Id Cup', true)), '--external-id', 'has spaces');
    expect(bad.code).toBe(1);
    expect(bad.output.trim()).toBe(
      'import:openfootball: --external-id must be 3 to 100 letters, digits, _ . : or -, e.g. ' +
        'openfootball:world-cup-2026',
    );
    const noName = await run(file('no-name.json', cup('!!!', true)));
    expect(noName.code).toBe(1);
    expect(noName.output.trim()).toBe(
      'import:openfootball: the tournament name "!!!" has no letter or digit to derive an id from: give --external-id',
    );
    expect(await tournamentsNamed('Bad Id Cup')).toEqual([]);
  });
});

describe('hand-set decisions', () => {
  it('says how many it kept: a postponement survives the fixtures file, the results file then wins', async () => {
    const fixtures = file('decisions/fixtures.json', cup('Decisions Cup', false));
    expect((await run(fixtures)).code).toBe(0);
    const where = { externalId: 'openfootball:decisions-cup:match:m11' };
    await t.db.prisma.match.update({ where, data: { status: 'POSTPONED' } });
    const again = await run(fixtures);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/matches \+0 ~0 =7; 0 results new or changed, 0 predictions rescored; 1 hand-set /);
    expect(again.output).toMatch(/; 1 hand-set decisions kept\n$/);
    expect(await t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({ status: 'POSTPONED' });
    const results = await run(file('decisions/results.json', cup('Decisions Cup', true)));
    expect(results.output).toMatch(/matches \+0 ~5 =2; 5 results new or changed, .*; 0 hand-set decisions kept/);
    expect(await t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({ status: 'FINISHED' });
  });
});

describe('the command line', () => {
  const companies: Record<string, number> = {};
  beforeAll(async () => {
    const p = t.db.prisma;
    const create = async (data: { code: string; appPath?: string; appCustomDomain?: string }) =>
      (await p.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: data.code, ...data } })).id;
    companies.ACME = await create({ code: 'ACME', appPath: 'acme', appCustomDomain: 'prode.acme.test' });
    companies.BETA = await create({ code: 'BETA', appPath: 'beta' });
    companies.GAMMA = await create({ code: 'GAMMA', appCustomDomain: 'prode.gamma.test' });
    // "shared" is one company's code and another's app path.
    companies.shared = await create({ code: 'shared' });
    companies.OTHER = await create({ code: 'OTHER', appPath: 'shared' });
  });
  const entered = async (externalId: string) => {
    const rows = await t.db.prisma.companyTournament.findMany({
      where: { tournament: { externalId } },
      select: { company: { select: { code: true } } },
      orderBy: { companyId: 'asc' },
    });
    return rows.map((r) => r.company.code);
  };

  it.each([
    { by: 'code', names: ['BETA'], codes: ['BETA'] },
    { by: 'app path, in any case', names: ['Beta'], codes: ['BETA'] },
    { by: 'code, in any case', names: ['gamma'], codes: ['GAMMA'] },
    { by: 'custom domain', names: ['prode.gamma.test'], codes: ['GAMMA'] },
    {
      by: 'code, app path and domain of one company: entered once',
      names: ['ACME', 'acme', 'prode.acme.test'],
      codes: ['ACME'],
    },
    { by: 'several companies', names: ['acme', 'GAMMA'], codes: ['ACME', 'GAMMA'] },
  ])('--company by $by', async ({ names, codes }) => {
    const id = `test:company-${names.join('-')}`.replace(/[^\w.:-]/g, '_');
    const result = await run(
      file(`company/${id}.json`, cup('Company Cup', true)),
      '--external-id',
      id,
      ...names.flatMap((n) => ['--company', n]),
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(new RegExp(`; entered for ${codes.join(', ')}\n$`));
    expect(await entered(id)).toEqual(codes);
  });

  it.each([
    {
      name: 'a company nobody has',
      args: ['--company', 'nobody'],
      error: '--company nobody: no company has that code, app path or custom domain',
    },
    {
      name: "one company's code and another's path",
      args: ['--company', 'shared'],
      error:
        '--company shared names more than one company: shared (its code), OTHER (its app path); ' +
        'name it by another of its names',
    },
    { name: 'an empty company', args: ['--company', ' '], error: '--company needs a code, app path or custom domain' },
    {
      name: 'an unknown option',
      args: ['--compnay', 'acme'],
      error: 'unknown option --compnay; --help lists the options',
    },
    {
      name: 'an option without its value',
      args: ['--external-id'],
      error: "Option '--external-id <value>' argument missing; --help lists the options",
    },
  ])('refuses $name with one line, exit 1 and nothing written', async ({ args, error }) => {
    const path = file('refused.json', cup('Refused Cup', true));
    const result = await run(path, ...args);
    expect(result.code).toBe(1);
    expect(result.output.trim()).toBe(`import:openfootball: ${error}`);
    expect(await tournamentsNamed('Refused Cup')).toEqual([]);
  });

  it('refuses no file, two files and a missing file', async () => {
    const none = await run();
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/^import:openfootball: give exactly one file; usage: npm run import:openfootball -- /);
    expect((await run('a.json', 'b.json')).code).toBe(1);
    const missing = await run(join(dir, 'missing.json'));
    expect(missing.code).toBe(1);
    expect(missing.output.trim()).toBe(`import:openfootball: cannot read ${join(dir, 'missing.json')}: ENOENT`);
  });

  it.each([['--help'], ['-h'], ['some.json', '--help', '--company', 'whatever']])(
    '%s prints the usage and exits 0 without touching anything',
    async (...args) => {
      const result = await run(...args);
      expect(result.code).toBe(0);
      const out = result.output;
      expect(out).toMatch(/^usage: npm run import:openfootball -- <file.json> \[--external-id <id>\] /);
      for (const option of ['--external-id <id>', '--company <c>', '-h, --help']) expect(out).toContain(`  ${option}`);
      expect(out).toContain('code, app path or custom domain');
      for (const section of ['Environment', 'Examples']) expect(out).toMatch(new RegExp(`^${section}`, 'm'));
      for (const variable of ['DATABASE_URL', 'DATA_DIR', 'ENV_FILE']) expect(out).toContain(`  ${variable}`);
      expect(out).toContain('  npm run import:openfootball -- prisma/fixtures/openfootball/2026-worldcup.json');
      expect(out.split('\n').every((line) => line.length <= 120)).toBe(true);
    },
  );
});

describe("the README's example", () => {
  it('imports the World Cup file the repository ships, the one --help names too', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = /^npm run import:openfootball -- (\S+\.json) /m.exec(readme);
    expect(example, 'README names a file to import').not.toBeNull();
    const path = example![1];
    expect(path).toBe('prisma/fixtures/openfootball/2026-worldcup.json');
    expect((await run('--help')).output).toContain(`npm run import:openfootball -- ${path} `);
    const result = await run(path); // relative to the repository root, where npm runs the script
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/"World Cup 2026" \(openfootball:world-cup-2026\) created; .*matches \+104 /);
  });
});
