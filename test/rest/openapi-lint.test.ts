// The OpenAPI document as GET /openapi.json serves it passes Redocly's linter with its recommended rules
// (redocly.yaml), without a single warning: what API tooling checks a published document against.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { ROOT } from '../helpers/process.ts';

let s: TestServer;
let dir: string;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('redocly lint', () => {
  it('finds no error and no warning in the served document', async () => {
    const doc = await (await fetch(`${s.url}/openapi.json`)).json();
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: expect.any(String), identifier: expect.any(String) });
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const lint = spawnSync(
      join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        // No telemetry and no update check: CI reaches nothing but npm (redocly.yaml says telemetry: off too).
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', CI: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout) as { totals: Record<string, number>; problems: unknown[] };
    expect(report.problems, lint.stdout).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(lint.status, lint.stderr).toBe(0);
  }, 150_000);
});
