// `npm run bench:live -- --matchday` at a tiny scale, so the script cannot rot: two replicas on PostgreSQL, sockets
// of two companies, two results; every subscriber hears every result and a ranking after the last.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMatchday } from '../../bench/matchday.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

describe.runIf(suiteProvider === 'postgresql')('bench:live --matchday', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prode-matchday-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports every result delivered to every socket, and a ranking after the last', async () => {
    const { target, drop } = await emptyTarget('postgresql');
    try {
      if (target.provider !== 'postgresql') throw new Error('PostgreSQL expected');
      const report = await runMatchday({
        sockets: 12,
        companies: 2,
        everyMs: 1000,
        seconds: 2,
        out: join(dir, 'matchday.md'),
        databaseUrl: target.url,
      });
      expect(report).toContain('| matchUpdated delivered (sockets x results) | 24 of 24 |');
      expect(report).toMatch(/\| rankingChanged after the last result; delay median \/ p99 \| 12 of 12;/);
      expect(report).toMatch(/\| SQL statements of event executions per result \(both replicas\) \| \d/);
    } finally {
      await drop();
    }
  }, 180_000);
});
