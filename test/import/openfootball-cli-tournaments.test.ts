// npm run import:openfootball as an operator runs it, on a real database: which tournament a file is (its content
// decides, not its file name) and the hand-set decisions an import keeps. (openfootball-cli-options.test.ts: the
// command line's options and the README's example.)
import { describe, expect, it } from 'vitest';
import { defaultExternalId } from '../../src/import/external-id.ts';
import { cup, importCommand } from '../helpers/openfootball-cli.ts';

const cli = importCommand();
const { file, run, tournamentsNamed } = cli;

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
    const shootout = await cli.t.db.prisma.match.findUniqueOrThrow({
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
    await cli.t.db.prisma.match.update({ where, data: { status: 'POSTPONED' } });
    const again = await run(fixtures);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/matches \+0 ~0 =7; 0 results new or changed, 0 predictions rescored; 1 hand-set /);
    expect(again.output).toMatch(/; 1 hand-set decisions kept\n$/);
    expect(await cli.t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({ status: 'POSTPONED' });
    const results = await run(file('decisions/results.json', cup('Decisions Cup', true)));
    expect(results.output).toMatch(/matches \+0 ~5 =2; 5 results new or changed, .*; 0 hand-set decisions kept/);
    expect(await cli.t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({ status: 'FINISHED' });
  });
});
