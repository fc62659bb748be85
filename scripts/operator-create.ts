// `npm run operator:create -- --email <e-mail>`: the first platform operator of a production database (which
// starts empty: no demo accounts). Creates the operator's company when it does not exist yet and a manager account
// in it without a password, and prints a one-time link to set one (the reset flow's token, valid 72 hours): the
// password is chosen by the operator and exists nowhere else. The company is closed: no sign-up (a stranger there
// would read the operators' posts and take its seats) and the strong password policy; an existing one is closed too.
import { parseArgs } from 'node:util';
import { issueAccountToken } from '../src/auth/account-tokens.ts';
import { passwordResetLink } from '../src/app/accounts.ts';
import { engineFor } from '../src/engine/index.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { APP_PATH, COMPANY_CODE } from '../src/domain/company-settings.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';
import { checkPersonName } from '../src/domain/inputs.ts';

const SETUP_LINK_TTL_MS = 72 * 3600_000;
/** The operator company's settings: accounts only by invitation (or this script), and strong passwords. */
const CLOSED = { disableRegister: true, passwordPolicy: 'strong' } as const;

const USAGE = `usage: npm run operator:create -- --email <e-mail> [--name <name>] [--company-code <code>]
         [--company-name <name>] [--app-path <path>]
  Creates a platform operator (role manager) in the operator company (created when missing; default code OPERATOR,
  app path "operator"; sign-up closed and the strong password policy set, on an existing one too) and prints a
  one-time link (72 hours) to set its password. Uses DATABASE_URL / DATA_DIR like npm start, and APP_URL for the
  link.`;

function usage(problem: string): never {
  console.error(`operator:create: ${problem}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string', default: 'Platform operator' },
      'company-code': { type: 'string', default: 'OPERATOR' },
      'company-name': { type: 'string', default: 'Platform operations' },
      'app-path': { type: 'string', default: 'operator' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (err) {
  usage((err as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const email = values.email?.trim().toLowerCase();
if (!email) usage('--email is required');
if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
  usage(`"${values.email}" is not an e-mail address`);
const code = values['company-code']!.trim();
const appPath = values['app-path']!.trim().toLowerCase();
// The rules updateCompany applies to the same settings.
if (!COMPANY_CODE.test(code)) usage('--company-code takes 2 to 40 letters, digits, - or _');
if (!APP_PATH.test(appPath)) usage('--app-path takes 1 to 63 lower-case letters, digits or - (not at either end)');
const name = values.name!.trim() || 'Platform operator';
try {
  checkPersonName(name, '--name'); // as every face checks a person's name
} catch (err) {
  usage((err as Error).message);
}

try {
  const config = loadConfig();
  // The store opened as the server would open it: ENGINE=plain leaves the speed-only parts out here too.
  const engine = engineFor(config).db;
  await migrateDatabase(config.database, { engine });
  const db = await openDatabase(config.database, { engine });
  try {
    const outcome = await db.prisma.$transaction(async (tx) => {
      let company = await tx.company.findFirst({ where: { code, deletedAt: null } });
      if (!company) {
        const pathTaken = await tx.company.findFirst({ where: { appPath } });
        if (pathTaken)
          return {
            error: `app path "${appPath}" belongs to company ${pathTaken.code}: choose another with --app-path`,
          } as const;
        company = await tx.company.create({
          data: { ...DEFAULT_COMPANY_JSON, name: values['company-name']!.trim(), code, appPath, ...CLOSED },
        });
      } else if (!company.disableRegister || company.passwordPolicy !== CLOSED.passwordPolicy) {
        company = await tx.company.update({ where: { id: company.id }, data: CLOSED });
      }
      if (await tx.user.findFirst({ where: { companyId: company.id, email, deletedAt: null } })) {
        return { error: `${email} already has an account in company ${company.code}` } as const;
      }
      const user = await tx.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: company.id,
          email,
          name,
          role: 'manager',
          // None until the operator sets one through the link: login refuses an account without a password.
          passwordHash: null,
          emailVerified: true,
          externalId: `operator-${email}`,
          loginProviderId: email,
          showInitialTour: false,
        },
      });
      const token = await issueAccountToken(tx, user.id, 'passwordReset', new Date(), SETUP_LINK_TTL_MS);
      return { company, user, token } as const;
    });
    if ('error' in outcome) {
      console.error(`operator:create: ${outcome.error}`);
      process.exitCode = 1;
    } else {
      const { company, user, token } = outcome;
      console.log(
        `operator:create: created platform operator ${user.email} (user ${user.id}, role manager) in company ` +
          `${company.code} (x-app-path: ${company.appPath}; sign-up closed, strong password policy) on ` +
          db.description,
      );
      console.log(
        `set the password within 72 hours (single use; shown only now): ` +
          `${passwordResetLink(config.mail.appUrl, token)}`,
      );
      console.log(
        "  open it in a browser: the page (the gateway's own unless APP_URL names a frontend) sets the password " +
          'through the GraphQL mutation resetPassword(token, password); from a shell instead: ' +
          'curl -H "content-type: application/json" -d \'{"query":"mutation($t: String!, $p: String!) ' +
          '{ resetPassword(token: $t, password: $p) { token } }","variables":{"t":"<token>","p":"<password>"}}\' ' +
          'https://<gateway>/graphql',
      );
    }
  } finally {
    await db.close();
  }
} catch (err) {
  const line = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
  console.error(`operator:create: ${err instanceof ConfigError ? 'configuration error: ' : 'failed: '}${line.trim()}`);
  process.exitCode = 1;
}
