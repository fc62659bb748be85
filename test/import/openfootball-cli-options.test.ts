// npm run import:openfootball as an operator runs it, on a real database: the command line's options (which
// companies enter the tournament, what is refused, --help) and the README's example. (openfootball-cli-tournaments
// .test.ts: which tournament a file is.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { cup, importCommand } from '../helpers/openfootball-cli.ts';
import { ROOT } from '../helpers/process.ts';

const cli = importCommand();
const { file, run, tournamentsNamed } = cli;

describe('the command line', () => {
  const companies: Record<string, number> = {};
  beforeAll(async () => {
    const p = cli.t.db.prisma;
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
    const rows = await cli.t.db.prisma.companyTournament.findMany({
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
    const missing = await run(join(cli.dir, 'missing.json'));
    expect(missing.code).toBe(1);
    expect(missing.output.trim()).toBe(`import:openfootball: cannot read ${join(cli.dir, 'missing.json')}: ENOENT`);
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
