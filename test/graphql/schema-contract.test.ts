// The schema contract (CHANGELOG.md, at its top): schema.graphql breaks no client of the last released schema
// unless CHANGELOG.md's Unreleased section names the change; and the checker itself, on schemas made for it.
import { existsSync, readFileSync } from 'node:fs';
import { BreakingChangeType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE } from '../../src/graphql/print-schema.ts';
import {
  CHANGELOG_FILE,
  coordinateOf,
  cutRelease,
  latestRelease,
  releasedSchemaFile,
  schemaChanges,
  unacknowledgedBreakingChanges,
  unacknowledgedReport,
  unreleasedSection,
} from '../../scripts/lib/schema-contract.ts';
import { ROOT } from '../helpers/process.ts';

const changelog = readFileSync(CHANGELOG_FILE, 'utf8');

describe('schema.graphql against the last released schema', () => {
  it('CHANGELOG.md names a release whose schema is kept, and package.json carries its version', () => {
    const version = latestRelease(changelog);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(existsSync(releasedSchemaFile(version!)), `docs/schema/${version}.graphql`).toBe(true);
    expect(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).version).toBe(version);
  });

  it('breaks no client, unless CHANGELOG.md says so under Unreleased (BREAKING `coordinate`)', () => {
    const version = latestRelease(changelog)!;
    const missing = unacknowledgedBreakingChanges(
      readFileSync(releasedSchemaFile(version), 'utf8'),
      readFileSync(SCHEMA_FILE, 'utf8'),
      changelog,
    );
    expect(missing, unacknowledgedReport(version, missing)).toEqual([]);
  });
});

const RELEASED = `
  type Query { match(id: Int!): Match, matches(take: Int = 20): [Match!]! }
  type Match { id: Int!, status: MatchStatus!, homeGoals: Int }
  enum MatchStatus { SCHEDULED IN_PLAY FINISHED }
`;
const WITHOUT_HOME_GOALS = RELEASED.replace(', homeGoals: Int', '');
const log = (unreleased: string) => `# Changelog

## [Unreleased]
${unreleased}
## [0.1.0] - 2026-11-23

- BREAKING \`Match.homeGoals\`: acknowledged for an older release, which does not count now
`;

describe('the schema contract checker', () => {
  it('fails a removed field that the Unreleased section does not name, and says what to write', () => {
    const missing = unacknowledgedBreakingChanges(RELEASED, WITHOUT_HOME_GOALS, log('\n### Added\n\n- matches\n'));
    expect(missing).toEqual([{ coordinate: 'Match.homeGoals', description: 'Match.homeGoals was removed.' }]);
    expect(unacknowledgedReport('0.1.0', missing)).toContain(
      '- BREAKING `Match.homeGoals`: Match.homeGoals was removed. <why, and what clients must change>',
    );
  });

  it('passes once the Unreleased section names it', () => {
    const acknowledged = log('\n### Removed\n\n- BREAKING `Match.homeGoals`: read score.home instead\n');
    expect(unacknowledgedBreakingChanges(RELEASED, WITHOUT_HOME_GOALS, acknowledged)).toEqual([]);
  });

  it('does not take a mention without BREAKING, or of another coordinate, for an acknowledgement', () => {
    for (const entry of [
      '- `Match.homeGoals` removed',
      '- BREAKING `Match.homeGoalsTotal`: other',
      '- BREAKING Match',
    ]) {
      expect(unacknowledgedBreakingChanges(RELEASED, WITHOUT_HOME_GOALS, log(`\n${entry}\n`)), entry).toHaveLength(1);
    }
  });

  it('names each kind of breaking change by its schema coordinate', () => {
    const changed = `
      type Query { match(id: ID!, at: String!): Match, matches: [Match!]! }
      type Match { id: Int!, status: String! }
      input Unused { a: Int }
    `;
    const { breaking } = schemaChanges(RELEASED, changed);
    expect(breaking.map((c) => c.coordinate).sort()).toEqual(
      [
        'Match.homeGoals',
        'Match.status',
        'MatchStatus',
        'Query.match(at:)',
        'Query.match(id:)',
        'Query.matches(take:)',
      ].sort(),
    );
  });

  it('lists dangerous changes (an enum value added, a default changed) apart, failing nothing', () => {
    const next = RELEASED.replace('FINISHED', 'FINISHED POSTPONED').replace('take: Int = 20', 'take: Int = 50');
    const { breaking, dangerous } = schemaChanges(RELEASED, next);
    expect(breaking).toEqual([]);
    expect(dangerous.map((c) => c.coordinate).sort()).toEqual(['MatchStatus.POSTPONED', 'Query.matches(take:)']);
    expect(unacknowledgedBreakingChanges(RELEASED, next, log(''))).toEqual([]);
  });

  it('names directive changes with @', () => {
    const before = 'directive @cutoff(depth: Int) on FIELD\ntype Query { a: Int }';
    const after = 'directive @cutoff on FIELD\ntype Query { a: Int }';
    expect(schemaChanges(before, after).breaking.map((c) => c.coordinate)).toEqual(['@cutoff(depth:)']);
    expect(coordinateOf({ type: BreakingChangeType.DIRECTIVE_REMOVED, description: 'cutoff was removed.' })).toBe(
      '@cutoff',
    );
  });

  it('cuts a release: the Unreleased entries move under the new version, an empty Unreleased opens', () => {
    const next = cutRelease(log('\n### Added\n\n- matches\n'), '0.2.0', '2026-12-01');
    expect(latestRelease(next)).toBe('0.2.0');
    expect(unreleasedSection(next).trim()).toBe('');
    expect(next).toContain('## [Unreleased]\n\n## [0.2.0] - 2026-12-01\n\n### Added\n\n- matches\n\n## [0.1.0]');
    expect(() => cutRelease(log('\n'), '0.2.0', '2026-12-01')).toThrow(/Unreleased section .* is empty/);
  });
});
