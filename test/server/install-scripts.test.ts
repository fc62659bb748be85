// Dependencies' install scripts run only where package.json's allowScripts approves them (npm 12; npm 11.16+
// already skips the denied ones), and .npmrc's strict-allow-scripts fails an install that meets an unreviewed one.
// So a new dependency with an install script fails here and in CI's `npm ci` until someone decides on it
// (docs/design.md, "Install scripts").
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, unknown> };
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('dependency install scripts', () => {
  it('each package the lockfile marks with an install script has a decision in allowScripts, and no other has', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const decisions = pkg.allowScripts ?? {};
    expect(Object.keys(decisions).sort()).toEqual([...new Set(withScripts)].sort());
    for (const [name, allowed] of Object.entries(decisions)) expect(typeof allowed, name).toBe('boolean');
  });

  it('names packages without a version: the lockfile records no resolved URL, which a pinned entry needs', () => {
    for (const name of Object.keys(pkg.allowScripts ?? {})) expect(name).toMatch(/^(@[^@/]+\/)?[^@/]+$/);
  });

  it('an install that meets an unreviewed install script fails (.npmrc)', () => {
    expect(read('.npmrc')).toMatch(/^strict-allow-scripts=true$/m);
  });

  it('better-sqlite3 needs no install step here: its package ships the binary for this platform', () => {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('better-sqlite3/package.json'));
    const { getPrebuildPath } = require(join(dir, 'lib/binding.js')) as { getPrebuildPath(): string | null };
    const prebuild = getPrebuildPath();
    expect(prebuild).not.toBeNull();
    expect(existsSync(prebuild!)).toBe(true);
  });
});
