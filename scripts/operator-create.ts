// `npm run operator:create -- --email <e-mail>`: the first platform operator of a production database (which
// starts empty: no demo accounts). Creates the operator's company when it does not exist yet and a manager account
// in it, with a random initial password printed once, here and nowhere else.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { hashPassword, setPasswordHashCost } from '../src/auth/passwords.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';

const USAGE = `usage: npm run operator:create -- --email <e-mail> [--name <name>] [--company-code <code>] [--company-name <name>] [--app-path <path>]
  Creates a platform operator (role manager) in the operator company (created when missing; default code OPERATOR,
  app path "operator") and prints its initial password once. Uses DATABASE_URL / DATA_DIR like npm start.`;

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
if (!/^[A-Za-z0-9_-]{2,40}$/.test(code)) usage('--company-code takes 2 to 40 letters, digits, - or _');
if (!/^[a-z0-9-]{2,63}$/.test(appPath)) usage('--app-path takes 2 to 63 lower-case letters, digits or -');
const name = values.name!.trim() || 'Platform operator';

try {
  const config = loadConfig();
  setPasswordHashCost(config.passwordHashCost);
  await migrateDatabase(config.database);
  const db = await openDatabase(config.database);
  // 24 characters from a 144-bit random value: far past any password policy's reach for guessing.
  const password = randomBytes(18).toString('base64url');
  const passwordHash = await hashPassword(password);
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
          data: { ...DEFAULT_COMPANY_JSON, name: values['company-name']!.trim(), code, appPath },
        });
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
          passwordHash,
          emailVerified: true,
          externalId: `operator-${email}`,
          loginProviderId: email,
          showInitialTour: false,
        },
      });
      return { company, user } as const;
    });
    if ('error' in outcome) {
      console.error(`operator:create: ${outcome.error}`);
      process.exitCode = 1;
    } else {
      const { company, user } = outcome;
      console.log(
        `operator:create: created platform operator ${user.email} (user ${user.id}, role manager) in company ${company.code} (x-app-path: ${company.appPath}) on ${db.description}`,
      );
      console.log(`initial password (shown only now; keep it in your secret store): ${password}`);
    }
  } finally {
    await db.close();
  }
} catch (err) {
  const line = (err as Error).message.split('\n').find((l) => l.trim()) ?? String(err);
  console.error(`operator:create: ${err instanceof ConfigError ? 'configuration error: ' : 'failed: '}${line.trim()}`);
  process.exitCode = 1;
}
