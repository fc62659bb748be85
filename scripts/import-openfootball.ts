// `npm run import:openfootball -- <file.json> [--external-id <id>] [--company <code|path|domain>]...`
// Migrates, imports the file idempotently, and enters the tournament for the given companies, all in the import's
// one transaction. The tournament is known by its externalId: --external-id, else one derived from the
// tournament's name in the file (never from the file's name: see src/import/external-id.ts).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { engineFor } from '../src/engine/index.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { companyByCode } from '../src/db/company-code.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { defaultExternalId, EXTERNAL_ID_RULE, isValidExternalId } from '../src/import/external-id.ts';
import { runDueRescores } from '../src/game/rescore-jobs.ts';
import { importLiveEvents, importTournament } from '../src/import/import-tournament.ts';
import { notifyLiveEvents } from '../src/live/pg-bus.ts';
import { parseOpenfootball } from '../src/import/openfootball.ts';

const USAGE = `usage: npm run import:openfootball -- <file.json> [--external-id <id>] [--company <code|path|domain>]...
       [--allow-future-results]

Imports an openfootball worldcup.json file into the database DATABASE_URL names, idempotently, in one transaction:
a second run creates nothing twice, updates what the file changed, and keeps the dates and results an operator
set by hand that the file says nothing new about.

  --external-id <id>  the tournament's id (${EXTERNAL_ID_RULE});
                      default: openfootball: and the slug of the file's "name" ("World Cup 2026" is
                      openfootball:world-cup-2026), not the file's own name
  --company <c>       enter the tournament for this company, named by its code, app path or custom domain;
                      repeat for more companies
  --allow-future-results  take the results the file gives for matches whose kickoff is still ahead (a replay
                      of a past season); without it such a match is imported as scheduled, as a referee would
  -h, --help          print this and exit

Environment (and the .env file, as for npm start):
  DATABASE_URL        postgresql://... for PostgreSQL; unset: the SQLite file $DATA_DIR/prode.db
  DATA_DIR            where that SQLite file lives (default ./data)
  ENV_FILE            read this file instead of ./.env

Examples:
  npm run import:openfootball -- prisma/fixtures/openfootball/2026-worldcup.json --company DEMO
  npm run import:openfootball -- results.json --external-id openfootball:world-cup-2026
  DATABASE_URL=postgresql://user:pass@127.0.0.1:5432/prode npm run import:openfootball -- 2026-worldcup.json`;

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

/** The one company (not deleted) whose code (without regard to case), app path or custom domain is `name`. */
async function companyNamed(prisma: Db, name: string) {
  // Paths and domains are stored lower-case; codes are matched without regard to case, as x-app-company does.
  const lower = name.toLowerCase();
  const select = { id: true, code: true, appPath: true, appCustomDomain: true };
  const byCode = await companyByCode(prisma, name, { activeOnly: true });
  const others = await prisma.company.findMany({
    where: { deletedAt: null, OR: [{ appPath: lower }, { appCustomDomain: lower }] },
    select,
    orderBy: { id: 'asc' },
  });
  const found = [...(byCode ? [byCode] : []), ...others.filter((c) => c.id !== byCode?.id)];
  if (found.length === 0) fail(`--company ${name}: no company has that code, app path or custom domain`);
  if (found.length > 1) {
    const which = found.map((c) => {
      const as = c.id === byCode?.id ? 'code' : c.appPath === lower ? 'app path' : 'custom domain';
      return `${c.code} (its ${as})`;
    });
    fail(`--company ${name} names more than one company: ${which.join(', ')}; name it by another of its names`);
  }
  return { id: found[0].id, code: found[0].code };
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      'external-id': { type: 'string' },
      company: { type: 'string', multiple: true },
      'allow-future-results': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (err) {
  const e = err as Error & { code?: string };
  // Node's own message suggests "--" for positionals, which is no help for a mistyped option.
  const unknown = e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec(e.message)?.[1] : undefined;
  fail(`${unknown ? `unknown option ${unknown}` : e.message}; --help lists the options`);
}
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const file = args.positionals[0];
if (!file || args.positionals.length > 1) fail(`give exactly one file; ${USAGE.split('\n')[0]}`);
const given = args.values['external-id'];
if (given !== undefined && !isValidExternalId(given)) fail(`--external-id must be ${EXTERNAL_ID_RULE}`);
const companyNames = args.values.company ?? [];
if (companyNames.some((c) => c.trim() === '')) fail('--company needs a code, app path or custom domain');

try {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = parseOpenfootball(JSON.parse(text));
  const derived = defaultExternalId(parsed.name);
  if (given === undefined && !derived)
    fail(`the tournament name "${parsed.name}" has no letter or digit to derive an id from: give --external-id`);
  const config = loadConfig();
  // The store opened as the server would open it: ENGINE=plain leaves the speed-only parts out here too.
  const engine = engineFor(config).db;
  await migrateDatabase(config.database, { engine });
  const db = await openDatabase(config.database, { engine });
  const externalId = given ?? (await knownExternalId(db.prisma, derived!, parsed.name, file));
  // Every company is found before anything is written; the same company named twice is entered once.
  const companies = new Map<number, { id: number; code: string }>();
  for (const name of companyNames) {
    const company = await companyNamed(db.prisma, name.trim());
    companies.set(company.id, company);
  }
  const report = await importTournament(db.prisma, parsed, {
    externalId,
    enterCompanyIds: [...companies.keys()],
    rescoreInTransactionMaxPredictions: config.rescoreInRequestMaxPredictions,
    allowFutureResults: args.values['allow-future-results'] ?? false,
  });
  // Results over many predictions were left to jobs (one transaction per match): run here, so that the points are
  // out when this ends. A job that fails stays for the server's runner or the next notifications:tick.
  const jobs = report.rescoreJobsQueued
    ? await runDueRescores(db.prisma, (job) =>
        console.error(`import:openfootball: rescoring match ${job.matchId} failed: ${job.error}`),
      )
    : null;
  console.log(
    `import:openfootball: "${parsed.name}" (${externalId}) ${report.tournament}; rounds +${report.rounds.created} ` +
      `~${report.rounds.updated}; ` +
      `teams +${report.teams.created}; matches +${report.matches.created} ~${report.matches.updated} ` +
      `=${report.matches.unchanged}; ` +
      `${report.changedResultMatchIds.length} results new or changed, ` +
      `${report.rescoredPredictions + (jobs?.predictions ?? 0)} predictions rescored` +
      (jobs
        ? ` (in ${jobs.done} rescoring jobs${jobs.failed ? `, ${jobs.failed} failed and left for later` : ''})`
        : '') +
      `; ${report.keptDecisions} hand-set decisions kept` +
      (report.futureResultsIgnored
        ? `; ${report.futureResultsIgnored} results of matches not yet kicked off left out (--allow-future-results)`
        : '') +
      (companies.size ? `; entered for ${[...companies.values()].map((c) => c.code).join(', ')}` : ''),
  );
  // The replicas' subscribers hear of the new results (on SQLite the server's feed is its own process's).
  if (config.database.provider === 'postgresql')
    await notifyLiveEvents(
      (channel, payload) => db.prisma.$executeRawUnsafe('SELECT pg_notify($1, $2)', channel, payload),
      importLiveEvents({ ...report, rescoredPredictions: report.rescoredPredictions + (jobs?.predictions ?? 0) }),
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
