// The operator's company is closed: operator:create makes it with sign-up disabled and the strong password policy,
// so a stranger cannot register next to the platform's operators, read their posts and take their seats.
// (operator-company-warning.test.ts: an existing operator company is closed, and a production start names every
// company where an account has the manager role and sign-up is open.)
import { describe, expect, it } from 'vitest';
import { migratedDatabase } from '../helpers/db.ts';
import { openWarning, productionTarget, register } from '../helpers/operator.ts';
import { runScript, startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-operator-');

describe("the operator's company", () => {
  it('operator:create makes it with sign-up closed and strong passwords; a stranger cannot register', async () => {
    // Not even migrated: operator:create migrates the database it is given before it writes.
    const { target, drop, env } = await productionTarget(tempDir(), { migrated: false });
    try {
      const created = runScript('scripts/operator-create.ts', env, ['--email', 'ops@example.com']);
      expect(await created.exited, created.output()).toBe(0);
      expect(created.output()).toMatch(/sign-up closed, strong password policy/);
      const t = await migratedDatabase(target);
      try {
        expect(await t.db.prisma.company.findFirstOrThrow({ where: { code: 'OPERATOR' } })).toMatchObject({
          disableRegister: true,
          passwordPolicy: 'strong',
        });
      } finally {
        await t.db.close();
      }
      const service = await startService(env);
      try {
        const r = await register(service.url, 'stranger@example.com');
        expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
        expect(r.errors?.[0].message).toMatch(/sign-up is closed/);
      } finally {
        expect(await service.stop('SIGTERM')).toBe(0);
      }
      expect(openWarning(service.output())).toEqual([]);
    } finally {
      await drop();
    }
  });
});
