// `npm run release -- <version>`: cuts a release of the API. Copies schema.graphql to docs/schema/<version>.graphql
// (the schema the contract test compares with from then on), moves CHANGELOG.md's Unreleased entries under
// `## [<version>] - <today>`, and sets package.json's version. Refuses while a breaking change is unacknowledged.
// Commit the result and tag it if you like; nothing here touches git.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, printSchemaFile } from '../src/graphql/print-schema.ts';
import {
  CHANGELOG_FILE,
  cutRelease,
  latestRelease,
  releasedCopy,
  releasedSchemaFile,
  unacknowledgedBreakingChanges,
  unacknowledgedReport,
} from './lib/schema-contract.ts';

const PACKAGE_FILES = ['package.json', 'package-lock.json'].map((f) =>
  fileURLToPath(new URL(`../${f}`, import.meta.url)),
);

function fail(message: string): never {
  console.error(`release: ${message}`);
  process.exit(1);
}

const version = process.argv[2] ?? '';
if (!/^\d+\.\d+\.\d+$/.test(version)) fail('usage: npm run release -- <major.minor.patch>, e.g. 0.2.0');
const changelog = readFileSync(CHANGELOG_FILE, 'utf8');
const previous = latestRelease(changelog);
const newer = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};
if (previous && !newer(version, previous)) fail(`${version} is not newer than the last release, ${previous}`);
if (existsSync(releasedSchemaFile(version))) fail(`docs/schema/${version}.graphql exists already`);
const current = readFileSync(SCHEMA_FILE, 'utf8');
if (current !== printSchemaFile()) fail('schema.graphql is stale: run npm run schema first');
if (previous) {
  const missing = unacknowledgedBreakingChanges(readFileSync(releasedSchemaFile(previous), 'utf8'), current, changelog);
  if (missing.length) fail(unacknowledgedReport(previous, missing));
}

let next: string;
try {
  next = cutRelease(changelog, version, new Date().toISOString().slice(0, 10));
} catch (err) {
  fail((err as Error).message);
}
writeFileSync(releasedSchemaFile(version), releasedCopy(current, version));
writeFileSync(CHANGELOG_FILE, next);
for (const file of PACKAGE_FILES) {
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  pkg.version = version;
  if (pkg.packages?.['']) pkg.packages[''].version = version;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
console.log(`release: ${version} cut (docs/schema/${version}.graphql, CHANGELOG.md, package.json): review and commit`);
