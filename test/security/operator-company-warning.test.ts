// A production start names every company where an account has the manager role and sign-up is open, and
// operator:create closes an operator company that exists with sign-up open (operator-company-create.test.ts: the
// company it makes is closed from the start).
import { describe, expect, it } from 'vitest';
import { migratedDatabase } from '../helpers/db.ts';
import { openWarning, productionTarget, register } from '../helpers/operator.ts';
import { runScript, startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-operator-');

describe("the operator's company", () => {
  it(
    'a production start warns about every company with a manager and open sign-up; operator:create closes an ' +
      'existing operator company',
    async () => {
      const { target, drop, env } = await productionTarget(tempDir());
      try {
        const first = runScript('scripts/operator-create.ts', env, ['--email', 'ops@example.com']);
        expect(await first.exited, first.output()).toBe(0);
        // As the script left it before it closed the company, and a second company a manager sits in, opened
        // later; a third, open but without a manager, is no operators' company.
        const t = await migratedDatabase(target);
        try {
          const p = t.db.prisma;
          await p.company.update({
            where: { code: 'OPERATOR' },
            data: { disableRegister: false, passwordPolicy: 'base' },
          });
          const operator = await p.company.findFirstOrThrow({ where: { code: 'OPERATOR' } });
          const { id: _id, ...template } = operator;
          const ops2 = await p.company.create({ data: { ...template, code: 'OPS2', appPath: 'ops2' } as never });
          await p.company.create({ data: { ...template, code: 'OPENCO', appPath: 'openco' } as never });
          const manager = await p.user.findFirstOrThrow({ where: { companyId: operator.id } });
          const { id: _uid, ...userTemplate } = manager;
          await p.user.create({
            data: { ...userTemplate, companyId: ops2.id, email: 'ops2@example.com', externalId: 'ops2' } as never,
          });
        } finally {
          await t.db.close();
        }

        const service = await startService(env);
        // The hole the warning is about: a stranger registers in the operators' company.
        expect((await register(service.url, 'stranger@example.com')).errors).toBeUndefined();
        expect(await service.stop('SIGTERM')).toBe(0);
        const warned = openWarning(service.output());
        expect(warned).toHaveLength(1);
        expect(warned[0].level).toBe(40);
        expect(warned[0].msg).toMatch(/OPERATOR \(x-app-path: operator\), OPS2 \(x-app-path: ops2\);/);
        expect(warned[0].msg).not.toMatch(/OPENCO/);

        const again = runScript('scripts/operator-create.ts', env, ['--email', 'ops3@example.com']);
        expect(await again.exited, again.output()).toBe(0);
        const restarted = await startService(env);
        try {
          const r = await register(restarted.url, 'stranger2@example.com');
          expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
        } finally {
          expect(await restarted.stop('SIGTERM')).toBe(0);
        }
        const still = openWarning(restarted.output());
        expect(still).toHaveLength(1);
        expect(still[0].msg).toMatch(/: OPS2 \(x-app-path: ops2\);/);
        const t2 = await migratedDatabase(target);
        try {
          expect(await t2.db.prisma.company.findFirstOrThrow({ where: { code: 'OPERATOR' } })).toMatchObject({
            disableRegister: true,
            passwordPolicy: 'strong',
          });
        } finally {
          await t2.db.close();
        }
      } finally {
        await drop();
      }
    },
    // Two runs of the script and two starts of the server, each a process of its own.
    180_000,
  );
});
