// README's quick start and first steps, run as a reader pastes them: every ```sh block right after a
// `<!-- readme-test -->` line, in the README's order, in one bash (so variables carry over, as in one terminal),
// against the server started as `npm start` starts it, outside production, on a fresh SQLite demo database.
// Blocks without the marker (npm install, PostgreSQL, imports) are not run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startService, type Service } from '../helpers/process.ts';

const MARKER = '<!-- readme-test -->';

/** The marked blocks' text, in order. */
export function markedSnippets(markdown: string): string[] {
  const blocks: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== MARKER) continue;
    if (lines[i + 1]?.trim() !== '```sh')
      throw new Error(`README line ${i + 1}: ${MARKER} must precede a \`\`\`sh block`);
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`README line ${i + 2}: the block never closes`);
    blocks.push(lines.slice(i + 2, end).join('\n'));
    i = end;
  }
  return blocks;
}

// What each block must print, found by a line it holds; a marked block with no entry here fails the test, so a
// new marked block comes with its check. curl prints no newline after a body: the responses run together.
const EXPECTED: Array<[holds: string, prints: RegExp[]]> = [
  ['/healthz', [/\{"status":"ok"\}/, /\{"status":"ready","database":"sqlite"\}/]],
  ['{ me { name company { name } } }', [/\{"data":\{"me":\{"name":"Demo Player 1","company":\{"name":"Demo Corp"\}\}/]],
  [
    '/invitations/jwt/$INVITE',
    [
      /\{"id":1,"text":"Who else has Argentina as champion\?"/, // GET /posts/1
      /\[\{"id":1,"text":"Comment 1 on /, // its comments
      /\[\{"id":1,"name":"Prode Demo Cup"/, // GET /tournaments/me
      /\{"id":1,"externalId":"[^"]+","name":"Ada Lovelace",/, // PATCH /invitations/1 ...
      /"areaLevel1":\{"id":1,"name":"Argentina"/, // ... with its new area
      /\[\{"id":\d+,"name":"Globex"/, // the reseller's search
      /\{"id":6,"text":"/, // a managed company's post through x-app-company
      /"externalId":"\d+","name":null,"email":"guest\d+@demo\.test","role":"player","company":\{"id":2,/, // by JWT
    ],
  ],
  [
    '?page=2',
    [
      /^allow: GET, HEAD\r?$/im,
      /"statusCode":400,.*"message":"unknown query parameter page \(this route takes skip, take, search\)"/,
      /"statusCode":404,"error":"Not Found","code":"NOT_FOUND","message":"no route GET \/nope"/,
    ],
  ],
];

let service: Service;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'readme-'));
  // npm start's own command (package.json), NODE_ENV unset as in a reader's shell.
  service = await startService({ DATA_DIR: dataDir, NODE_ENV: undefined });
  port = Number(new URL(service.url).port);
}, 90_000);
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('README snippets', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const snippets = markedSnippets(readme);

  it('the server they run against is started the way npm start starts it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    // What startService runs; `exec` only puts node in the shell's place.
    expect(pkg.scripts.start).toBe('exec node --import tsx src/server.ts');
    expect(snippets.length).toBeGreaterThanOrEqual(4);
    for (const snippet of snippets) {
      expect(snippet, 'every snippet takes its port from PORT').toMatch(/^PORT=\$\{PORT:-4000\}$/m);
      expect(snippet, 'no hard-coded port or localhost').not.toMatch(/localhost|:4000\//);
      expect(snippet, 'no placeholder to fill in').not.toMatch(/<[a-z-]+>/);
    }
  });

  it('every marked block runs as written, in order, and prints what it should', () => {
    const SEP = '@@readme-snippet-done';
    const script = ['set -euo pipefail', ...snippets.map((s) => `${s}\necho ${SEP}`)].join('\n');
    const run = spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      // PORT is the one thing a reader sets when the server is not on 4000; no jq, only what a fresh machine has.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const outputs = run.stdout.split(`${SEP}\n`);
    const done = outputs.length - 1;
    expect(
      run.status,
      `block ${done + 1} failed (exit ${run.status}):\n${snippets[done]}\n--- printed:\n` +
        `${outputs[done]?.slice(0, 2000)}\n${run.stderr}`,
    ).toBe(0);
    expect(done).toBe(snippets.length);
    snippets.forEach((snippet, i) => {
      const expected = EXPECTED.find(([holds]) => snippet.includes(holds));
      expect(expected, `marked block ${i + 1} has no entry in EXPECTED:\n${snippet}`).toBeDefined();
      const shown = `block ${i + 1} printed ${outputs[i].length} characters, from:\n${outputs[i].slice(0, 400)}`;
      for (const pattern of expected![1]) expect(pattern.test(outputs[i]), `${pattern} in ${shown}`).toBe(true);
      const bad = /"errors":\[|"code":"(INTERNAL_SERVER_ERROR|UNAUTHENTICATED|FORBIDDEN|BAD_USER_INPUT)"/;
      if (!snippet.includes('?page=2')) expect(bad.test(outputs[i]), `an error in ${shown}`).toBe(false);
    });
  });
});
