// The schema contract (CHANGELOG.md explains it at its top): schema.graphql may break clients of the last released
// schema (docs/schema/<version>.graphql, the version of CHANGELOG.md's newest release heading) only where the
// Unreleased section of CHANGELOG.md acknowledges the change by its schema coordinate. Pure functions over texts,
// used by the test (test/graphql/schema-contract.test.ts) and the scripts (schema:check, release).
import { fileURLToPath } from 'node:url';
import {
  BreakingChangeType,
  buildSchema,
  findBreakingChanges,
  findDangerousChanges,
  type BreakingChange,
  type DangerousChange,
} from 'graphql';

export const CHANGELOG_FILE = fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url));
export const releasedSchemaFile = (version: string) =>
  fileURLToPath(new URL(`../../docs/schema/${version}.graphql`, import.meta.url));

const RELEASE_HEADING = /^## \[(\d+\.\d+\.\d+)\]/m;
const UNRELEASED_HEADING = /^## \[Unreleased\][^\n]*\n/m;

export interface SchemaChange {
  /** Where it happened, as a schema coordinate: Type, Type.field, Type.field(arg:), Enum.VALUE, @directive(arg:). */
  coordinate: string;
  /** graphql-js's own words. */
  description: string;
}

/** The newest released version: the first `## [x.y.z]` heading (Keep a Changelog lists the newest first). */
export function latestRelease(changelog: string): string | null {
  return RELEASE_HEADING.exec(changelog)?.[1] ?? null;
}

/** The text of the `## [Unreleased]` section, up to the next `## ` heading. */
export function unreleasedSection(changelog: string): string {
  const start = UNRELEASED_HEADING.exec(changelog);
  if (!start) return '';
  const rest = changelog.slice(start.index + start[0].length);
  const end = /^## /m.exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

// graphql-js describes each change in a fixed sentence: its first names say where. Directives by their type.
const DIRECTIVE_COORDINATES: Partial<Record<string, [RegExp, (m: RegExpExecArray) => string]>> = {
  [BreakingChangeType.DIRECTIVE_REMOVED]: [/^(\w+)/, (m) => `@${m[1]}`],
  [BreakingChangeType.DIRECTIVE_ARG_REMOVED]: [/^(\w+) was removed from (\w+)\./, (m) => `@${m[2]}(${m[1]}:)`],
  [BreakingChangeType.REQUIRED_DIRECTIVE_ARG_ADDED]: [
    /required arg (\w+) on directive (\w+)/,
    (m) => `@${m[2]}(${m[1]}:)`,
  ],
  [BreakingChangeType.DIRECTIVE_REPEATABLE_REMOVED]: [/from (\w+)\.$/, (m) => `@${m[1]}`],
  [BreakingChangeType.DIRECTIVE_LOCATION_REMOVED]: [/from (\w+)\.$/, (m) => `@${m[1]}`],
};
const COORDINATES: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^An? (?:required|optional) arg (\w+) on (\w+)\.(\w+)/, (m) => `${m[2]}.${m[3]}(${m[1]}:)`],
  [/^An? (?:required|optional) field (\w+) on input type (\w+)/, (m) => `${m[2]}.${m[1]}`],
  [/^(\w+)\.(\w+) arg (\w+)/, (m) => `${m[1]}.${m[2]}(${m[3]}:)`],
  [/^(\w+)\.(\w+) /, (m) => `${m[1]}.${m[2]}`],
  [/^(\w+) was (?:removed from|added to) enum type (\w+)/, (m) => `${m[2]}.${m[1]}`],
  [/^(\w+) was (?:removed from|added to) union type (\w+)/, (m) => m[2]],
  [/^(\w+) added to interfaces implemented by (\w+)/, (m) => m[2]],
  [/^Standard scalar (\w+)/, (m) => m[1]],
  [/^(\w+)/, (m) => m[1]],
];

export function coordinateOf(change: BreakingChange | DangerousChange): string {
  const directive = DIRECTIVE_COORDINATES[change.type];
  const patterns = directive ? [directive, ...COORDINATES] : COORDINATES;
  for (const [pattern, coordinate] of patterns) {
    const m = pattern.exec(change.description);
    if (m) return coordinate(m);
  }
  return change.description;
}

const described = (change: BreakingChange | DangerousChange): SchemaChange => ({
  coordinate: coordinateOf(change),
  description: change.description,
});

export function schemaChanges(released: string, current: string) {
  const before = buildSchema(released);
  const after = buildSchema(current);
  return {
    breaking: findBreakingChanges(before, after).map(described),
    dangerous: findDangerousChanges(before, after).map(described),
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An Unreleased line `- BREAKING `coordinate`...` acknowledges every change at that coordinate. */
export function isAcknowledged(coordinate: string, changelog: string): boolean {
  return new RegExp(`^\\s*[-*] BREAKING\\b.*\`${escape(coordinate)}\``, 'm').test(unreleasedSection(changelog));
}

/** The breaking changes since the released schema that CHANGELOG.md's Unreleased section does not name. */
export function unacknowledgedBreakingChanges(released: string, current: string, changelog: string): SchemaChange[] {
  return schemaChanges(released, current).breaking.filter((c) => !isAcknowledged(c.coordinate, changelog));
}

/** The line CHANGELOG.md's Unreleased section needs: the developer replaces the placeholder with the why. */
export const acknowledgementLine = (change: SchemaChange) =>
  `- BREAKING \`${change.coordinate}\`: ${change.description} <why, and what clients must change>`;

export function unacknowledgedReport(version: string, changes: SchemaChange[]): string {
  return (
    `schema.graphql breaks clients of the released schema ${version} (docs/schema/${version}.graphql). ` +
    `If that is meant, add these lines under "## [Unreleased]" in CHANGELOG.md, each with its reason and what ` +
    `clients must change; if not, undo the change (deprecate a field before removing it in a later release):\n` +
    changes.map(acknowledgementLine).join('\n')
  );
}

/**
 * CHANGELOG.md after releasing `version` on `date`: the Unreleased entries move under `## [version] - date`, and an
 * empty Unreleased section opens above them.
 */
export function cutRelease(changelog: string, version: string, date: string): string {
  const start = UNRELEASED_HEADING.exec(changelog);
  if (!start) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  if (!unreleasedSection(changelog).trim()) throw new Error('the Unreleased section of CHANGELOG.md is empty');
  const at = start.index + start[0].length;
  return `${changelog.slice(0, at)}\n## [${version}] - ${date}\n${changelog.slice(at)}`;
}

/** The released copy of schema.graphql: its "generated, do not edit" line says what it is instead. */
export const releasedCopy = (schema: string, version: string) =>
  schema.replace(
    /^# GENERATED[^\n]*\n/,
    `# The schema as released in ${version}: copied from schema.graphql by \`npm run release\`. Do not edit.\n`,
  );
