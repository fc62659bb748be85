// Company codes become unique without regard to case (migration 20261123200000_company_code_case_insensitive).
// A database whose codes already differ only in case stops before that migration with a message naming them, and
// migrates once they are renamed.
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/bootstrap/migrate.ts';
import { openDatabase } from '../../src/db/client.ts';
import { companyByCode } from '../../src/db/company-code.ts';
import { isUniqueViolation } from '../../src/db/errors.ts';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

const MIGRATION = '20261123200000_company_code_case_insensitive';
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe(`${suiteProvider}: company codes without regard to case`, () => {
  it('codes differing only in case stop the migration, named; renamed, the database migrates', async () => {
    const { target, drop } = await emptyTarget();
    drops.push(drop);
    await migrateDatabase(target);
    // The database client is closed while migrations run: the schema engine takes its own connection.
    const open = () => openDatabase(target, { poolMax: 2 });
    let db = await open();
    // The database as it was before the migration, with codes it allowed then.
    await db.prisma.$executeRawUnsafe('DROP INDEX "Company_code_lower_key"');
    await db.prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE "migration_name" = '${MIGRATION}'`);
    const make = (code: string) => db.prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: code, code } });
    const acme = await make('ACME');
    const acmeLower = await make('acme');
    await make('Other');
    const beta = await make('Beta');
    const betaUpper = await make('BETA');
    await db.close();

    await expect(migrateDatabase(target)).rejects.toThrow(
      `company codes must be unique without regard to case, and these differ only in case: ` +
        `ACME (id ${acme.id}) = acme (id ${acmeLower.id}), Beta (id ${beta.id}) = BETA (id ${betaUpper.id}). ` +
        'Rename all but one of each',
    );
    db = await open();
    try {
      expect(await db.prisma.company.count()).toBe(5); // nothing changed
      await db.prisma.company.update({ where: { id: acmeLower.id }, data: { code: 'acme-2' } });
      await db.prisma.company.update({ where: { id: beta.id }, data: { code: 'beta-old' } });
    } finally {
      await db.close();
    }
    expect(await migrateDatabase(target)).toEqual([MIGRATION]);
    db = await open();
    try {
      await expect(make('other')).rejects.toSatisfy(isUniqueViolation);
      // The lookup finds the row findFirst finds, whatever the case asked for.
      const found = await companyByCode(db.prisma, 'aCmE', { activeOnly: true });
      expect(found).toEqual(await db.prisma.company.findUnique({ where: { id: acme.id } }));
      expect(await companyByCode(db.prisma, 'nobody')).toBeNull();
    } finally {
      await db.close();
    }
  });
});
