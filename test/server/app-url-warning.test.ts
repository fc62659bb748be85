// A production start with APP_URL unset warns once: the links it e-mails would point at the server's loopback
// address. An APP_URL that is set starts quietly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../src/bootstrap/prepare.ts';
import { loadConfig } from '../../src/config.ts';
import { emptyTarget } from '../helpers/db.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function productionWarnings(extra: Record<string, string>): Promise<string[]> {
  const { target, drop } = await emptyTarget();
  const dir = mkdtempSync(join(tmpdir(), 'prode-app-url-'));
  dirs.push(dir);
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      JWT_SECRET: 's'.repeat(40),
      DATA_DIR: dir,
      DATABASE_URL: target.provider === 'postgresql' ? target.url : `file:${target.file}`,
      ...extra,
    },
    () => {},
  );
  const warnings: string[] = [];
  try {
    const db = await prepareDatabase(config, { info: () => {}, warn: (msg) => warnings.push(msg) });
    await db.close();
  } finally {
    await drop();
  }
  return warnings;
}

describe('APP_URL at a production start', () => {
  it('unset is named in one warning', async () => {
    const warnings = (await productionWarnings({ PORT: '4123' })).filter((w) => w.startsWith('APP_URL'));
    expect(warnings).toEqual([
      'APP_URL is not set: the links of e-mails and operator:create point at http://127.0.0.1:4123 ' +
        "(set APP_URL to the gateway's public origin or to a frontend's)",
    ]);
  });

  it.each(['https://prode.example.com', 'http://localhost:8080'])('set (%s), no warning', async (url) => {
    const warnings = await productionWarnings({ APP_URL: url });
    expect(warnings.filter((w) => w.startsWith('APP_URL'))).toEqual([]);
  });
});
