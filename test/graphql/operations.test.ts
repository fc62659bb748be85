// The operations kept in operations/** (the REST routes', the benchmarks', the tests' and, in time, the frontends'):
// each file valid against schema.graphql, with fragments taken from any file as codegen takes them, and the
// trusted-documents manifest made from exactly them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  buildSchema,
  Kind,
  NoUnusedFragmentsRule,
  parse,
  print,
  specifiedRules,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import * as generated from '../../src/graphql/generated/operations.ts';
import { buildManifest, MANIFEST_FILE, manifestText, sha256Hex } from '../../src/graphql/operations-manifest.ts';
import { SCHEMA_FILE } from '../../src/graphql/print-schema.ts';
import { ROOT } from '../helpers/process.ts';

const DIR = join(ROOT, 'operations');
const files = readdirSync(DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.graphql'))
  .sort()
  .map((f) => join(DIR, f));

const at = (file: string, e: GraphQLError) => {
  const where = e.locations?.[0];
  return `${relative(ROOT, file)}${where ? `:${where.line}:${where.column}` : ''}: ${e.message}`;
};

/** Every file parsed (syntax errors named by file), and the fragments of all of them by name. */
function parseAll() {
  const problems: string[] = [];
  const documents = new Map<string, DocumentNode>();
  const fragments = new Map<string, { file: string; node: FragmentDefinitionNode }>();
  for (const file of files) {
    try {
      const document = parse(readFileSync(file, 'utf8'));
      documents.set(file, document);
      for (const d of document.definitions) {
        if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
        const seen = fragments.get(d.name.value);
        if (seen) problems.push(`${relative(ROOT, file)}: fragment ${d.name.value} is defined again (${seen.file})`);
        fragments.set(d.name.value, { file: relative(ROOT, file), node: d });
      }
    } catch (err) {
      problems.push(at(file, err as GraphQLError));
    }
  }
  return { problems, documents, fragments };
}

/** A file's definitions and the fragments they use from other files, followed to the end. */
function withFragments(document: DocumentNode, fragments: ReturnType<typeof parseAll>['fragments']) {
  const own = new Set(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])));
  const added: DefinitionNode[] = [];
  const queue: DefinitionNode[] = [...document.definitions];
  while (queue.length) {
    visit(queue.pop()!, {
      FragmentSpread(node) {
        const name = node.name.value;
        const found = fragments.get(name);
        if (own.has(name) || !found) return; // an unknown fragment is validate's to report
        own.add(name);
        added.push(found.node);
        queue.push(found.node);
      },
    });
  }
  return { ...document, definitions: [...document.definitions, ...added] };
}

describe('operations/**', () => {
  it('holds operation files to check', () => {
    expect(files.map((f) => relative(DIR, f))).toContain('rest/post.graphql');
  });

  it('every .graphql file is valid against schema.graphql (fragments from any file)', () => {
    const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    const { problems, documents, fragments } = parseAll();
    // A fragments-only file defines what others use: unused-here is not a mistake.
    const rules = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);
    const names = new Map<string, string>();
    for (const [file, document] of documents) {
      for (const e of validate(schema, withFragments(document, fragments), rules)) problems.push(at(file, e));
      for (const d of document.definitions) {
        if (d.kind !== Kind.OPERATION_DEFINITION) continue;
        if (!d.name) problems.push(`${relative(ROOT, file)}: an operation has no name (the manifest keys by name)`);
        else if (names.has(d.name.value))
          problems.push(
            `${relative(ROOT, file)}: operation ${d.name.value} is defined again (${names.get(d.name.value)})`,
          );
        else names.set(d.name.value, relative(ROOT, file));
      }
    }
    expect(problems, `fix these operations/** files:\n${problems.join('\n')}`).toEqual([]);
  });
});

describe('operations/manifest.json', () => {
  it('is what npm run codegen (operations:manifest) makes from operations/** (run npm run codegen)', () => {
    expect(readFileSync(MANIFEST_FILE, 'utf8')).toBe(manifestText(buildManifest()));
  });

  it('lists every operation of every operations/** file, each under the SHA-256 of its body', () => {
    const { documents } = parseAll();
    const inFiles = [...documents.values()].flatMap((d) =>
      d.definitions.flatMap((def) => (def.kind === Kind.OPERATION_DEFINITION && def.name ? [def.name.value] : [])),
    );
    const { operations } = buildManifest();
    expect(operations.map((op) => op.name).sort()).toEqual(inFiles.sort());
    for (const op of operations) expect(op.id).toBe(sha256Hex(op.body));
  });

  it('lists the REST routes’ operations as they send them (print of the generated document)', () => {
    const ids = new Set(buildManifest().operations.map((op) => op.id));
    const rest = Object.entries(generated).filter(([name]) => /^Rest\w+Document$/.test(name));
    expect(rest.length).toBeGreaterThanOrEqual(7);
    for (const [name, doc] of rest) expect(ids.has(sha256Hex(print(doc as DocumentNode))), name).toBe(true);
  });
});
