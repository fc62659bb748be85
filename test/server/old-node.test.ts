// On a Node older than 22 the native SQLite driver crashes (a segfault, exit 139, no word) and vitest does not
// start. Every npm script that runs the service's code says so first, in the one line `npm start` prints, and exits 1.
// Run here under a real old Node: the machine's own (Node 20 on CI's image, where .ci/node.sh puts a pinned 22 first
// on PATH), or the one OLD_NODE names.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT } from '../helpers/process.ts';

/** A node binary older than 22: OLD_NODE, else the first one on PATH or in the usual system places. */
function findOldNode(): string | undefined {
  const candidates = process.env.OLD_NODE
    ? [process.env.OLD_NODE]
    : [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'].map((dir) => join(dir, 'node'));
  for (const node of candidates) {
    if (!existsSync(node)) continue;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    if (Number(/^v(\d+)\./.exec(version)?.[1]) < 22) return node;
  }
  return undefined;
}

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
// Every script that runs the service's code: each db:* and bench* script package.json has (a new one is covered
// by its name), the named ones, and start, dev and test.
const CHECKED = Object.keys(scripts).filter(
  (name) =>
    /^(db:|bench)/.test(name) ||
    ['operator:create', 'import:openfootball', 'notifications:tick', 'start', 'dev', 'test'].includes(name),
);

// CI's machine has one, so there its absence fails; a developer's machine with only Node 22 or 24 skips these.
const found = findOldNode();
let oldNode: string;
let dir: string;
beforeAll(() => {
  if (!found) {
    if (process.env.CI !== 'true') return;
    throw new Error('no Node older than 22 found on PATH or in /usr/bin, /usr/local/bin: set OLD_NODE to its path');
  }
  oldNode = found;
  dir = mkdtempSync(join(tmpdir(), 'prode-old-node-'));
});
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

/** `npm run <name>` with the old Node first on PATH, as on a machine whose node is that one. */
function npmRun(name: string) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', name], {
      cwd: ROOT,
      env: childEnv({
        PATH: `${dirname(oldNode)}${delimiter}${process.env.PATH}`,
        // What a script would touch if it ran regardless: a database of the test's own.
        DATA_DIR: dir,
        npm_config_nodedir: undefined,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe.skipIf(!found && process.env.CI !== 'true')('npm scripts on a Node older than 22', () => {
  it("covers every script that runs the service's code", () => {
    expect(CHECKED).toEqual(
      expect.arrayContaining(['db:migrate', 'db:migration', 'db:seed', 'db:reset', 'operator:create']),
    );
    expect(CHECKED).toEqual(expect.arrayContaining(['import:openfootball', 'notifications:tick', 'bench']));
    expect(CHECKED.filter((name) => name.startsWith('bench:')).length).toBeGreaterThanOrEqual(4);
  });

  it('each prints the one line npm start prints and exits 1, before anything native loads', async () => {
    const version = execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim();
    const start = await npmRun('start');
    expect(start.code, start.stderr).toBe(1);
    const line = start.stderr.trim();
    expect(line).toBe(
      `prode-gateway needs Node 22 LTS or 24; this is Node ${version} (end of life). On a Linux x64 machine ` +
        'without it: source .ci/node.sh && node_use 22 (a pinned Node from the npm registry), then run the ' +
        'command again (README, "Quick start").',
    );
    // A few at a time: each is an npm start-up under the old Node.
    for (let i = 0; i < CHECKED.length; i += 4) {
      const runs = await Promise.all(CHECKED.slice(i, i + 4).map(async (name) => ({ name, ...(await npmRun(name)) })));
      for (const run of runs) {
        const what = `npm run ${run.name}:\n${run.stdout}\n${run.stderr}`;
        expect({ name: run.name, code: run.code, signal: run.signal }, what).toEqual({
          name: run.name,
          code: 1,
          signal: null,
        });
        expect(run.stderr.trim(), what).toBe(line);
      }
    }
    // Nothing of theirs ran: no database, not even a generated JWT secret, was written.
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});
