// `npm run import:openfootball -- <file.json> [--external-id <id>] [--company <appPath>]...`
// Migrates, imports the file idempotently, and enters the tournament for the given companies. The tournament is
// known by its externalId: --external-id, else one derived from the tournament's name in the file (never from the
// file's name: see src/import/external-id.ts).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { defaultExternalId, EXTERNAL_ID_RULE, isValidExternalId } from '../src/import/external-id.ts';
import { importTournament } from '../src/import/import-tournament.ts';
import { parseOpenfootball } from '../src/import/openfootball.ts';

function fail(message: string): never {
  console.error(`import:openfootball: ${message}`);
  process.exit(1);
}

/**
 * The derived id, unless this tournament was imported before ids came from the content: earlier versions took
 * the id from the file's name ("openfootball:<file name>"). A tournament under that id with the same name is this
 * one, so importing its results file again updates it instead of starting a second tournament.
 */
async function knownExternalId(prisma: Db, derived: string, name: string, path: string): Promise<string> {
  if (await prisma.tournament.findUnique({ where: { externalId: derived }, select: { id: true } })) return derived;
  const earlier = `openfootball:${basename(path).replace(/\.json$/i, '')}`;
  const found = await prisma.tournament.findUnique({ where: { externalId: earlier }, select: { name: true } });
  return found?.name === name ? earlier : derived;
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { 'external-id': { type: 'string' }, company: { type: 'string', multiple: true } },
  });
} catch (err) {
  fail((err as Error).message);
}
const file = args.positionals[0];
if (!file || args.positionals.length > 1)
  fail('usage: npm run import:openfootball -- <file.json> [--external-id <id>] [--company <appPath>]...');

try {
  const given = args.values['external-id'];
  if (given !== undefined && !isValidExternalId(given)) fail(`--external-id must be ${EXTERNAL_ID_RULE}`);
  const parsed = parseOpenfootball(JSON.parse(readFileSync(file, 'utf8')));
  const derived = defaultExternalId(parsed.name);
  if (given === undefined && !derived)
    fail(`the tournament name "${parsed.name}" has no letter or digit to derive an id from: give --external-id`);
  const config = loadConfig();
  await migrateDatabase(config.database);
  const db = await openDatabase(config.database);
  const externalId = given ?? (await knownExternalId(db.prisma, derived!, parsed.name, file));
  const companies = [];
  for (const appPath of args.values.company ?? []) {
    const company = await db.prisma.company.findFirst({ where: { appPath } });
    if (!company) fail(`no company with appPath "${appPath}"`);
    companies.push(company);
  }
  const report = await importTournament(db.prisma, parsed, { externalId });
  for (const company of companies) {
    await db.prisma.companyTournament.upsert({
      where: { companyId_tournamentId: { companyId: company.id, tournamentId: report.tournamentId } },
      create: { companyId: company.id, tournamentId: report.tournamentId },
      update: {},
    });
  }
  console.log(
    `import:openfootball: "${parsed.name}" (${externalId}) ${report.tournament}; rounds +${report.rounds.created} ` +
      `~${report.rounds.updated}; ` +
      `teams +${report.teams.created}; matches +${report.matches.created} ~${report.matches.updated} ` +
      `=${report.matches.unchanged}; ` +
      `${report.changedResultMatchIds.length} results new or changed, ${report.rescoredPredictions} predictions ` +
      `rescored; ${report.keptDecisions} hand-set decisions kept` +
      (companies.length ? `; entered for ${companies.map((c) => c.appPath).join(', ')}` : ''),
  );
  await db.close();
  process.exit(0);
} catch (err) {
  const e = err as Error;
  fail(
    (err instanceof ConfigError ? 'configuration error: ' : '') +
      (e instanceof SyntaxError ? `${file} is not valid JSON: ` : '') +
      e.message.split('\n')[0],
  );
}
