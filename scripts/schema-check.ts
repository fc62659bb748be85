// `npm run schema:check`: what schema.graphql changes for clients of the last released schema (CHANGELOG.md's
// newest release). Breaking changes not acknowledged in CHANGELOG.md's Unreleased section fail (exit 1), as the
// test does; dangerous ones (an enum value or optional argument added, a default changed) are listed to consider.
import { readFileSync } from 'node:fs';
import { SCHEMA_FILE } from '../src/graphql/print-schema.ts';
import {
  CHANGELOG_FILE,
  isAcknowledged,
  latestRelease,
  releasedSchemaFile,
  schemaChanges,
  unacknowledgedReport,
} from './lib/schema-contract.ts';

const changelog = readFileSync(CHANGELOG_FILE, 'utf8');
const version = latestRelease(changelog);
if (!version) {
  console.error('CHANGELOG.md names no release (## [x.y.z]): nothing to compare schema.graphql with');
  process.exit(1);
}
const { breaking, dangerous } = schemaChanges(
  readFileSync(releasedSchemaFile(version), 'utf8'),
  readFileSync(SCHEMA_FILE, 'utf8'),
);
console.log(`schema.graphql against the released ${version}:`);
for (const c of breaking)
  console.log(`  breaking  ${isAcknowledged(c.coordinate, changelog) ? '(in CHANGELOG) ' : ''}${c.description}`);
for (const c of dangerous) console.log(`  dangerous ${c.description}`);
if (breaking.length + dangerous.length === 0) console.log('  no breaking or dangerous change');
const missing = breaking.filter((c) => !isAcknowledged(c.coordinate, changelog));
if (missing.length) {
  console.error(`\n${unacknowledgedReport(version, missing)}`);
  process.exit(1);
}
