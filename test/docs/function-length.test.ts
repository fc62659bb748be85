// The HTTP assembly (src/gateway/) stays readable by a newcomer: each function does one part and composes the rest,
// so none runs past a screen. This parses each file with the TypeScript compiler and names every function over the
// limit, with its file:line and length.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const MAX_LINES = 80;
const GATEWAY = 'src/gateway';

/** Every function (declared, method, arrow, expression) longer than `max` lines, as `file:line name (n lines)`. */
export function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const named = node.name ? node : node.parent;
      const name =
        (ts.isVariableDeclaration(named) || ts.isPropertyAssignment(named) || ts.isFunctionLike(named)) &&
        named.name &&
        ts.isIdentifier(named.name)
          ? named.name.text
          : '(anonymous)';
      if (lines > max) found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe(`no function in ${GATEWAY}/ is over ${MAX_LINES} lines`, () => {
  it('finds the long functions of every kind, nested ones included', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const text = [
      `export function long() {\n${body(5)}\n}`,
      `const arrow = () => {\n${body(4)}\n};`,
      `class C {\n  method() {\n${body(4)}\n  }\n}`,
      `function short() {\n  return 1;\n}`,
      `function outer() {\n  const inner = function () {\n${body(4)}\n  };\n}`,
    ].join('\n');
    expect(longFunctions('x.ts', text, 4)).toEqual([
      'x.ts:1 long (7 lines)',
      'x.ts:8 arrow (6 lines)',
      'x.ts:15 method (6 lines)',
      'x.ts:25 outer (8 lines)',
      'x.ts:26 inner (6 lines)',
    ]);
    expect(longFunctions('x.ts', text, 7)).toEqual(['x.ts:25 outer (8 lines)']);
    expect(longFunctions('x.ts', text, 8)).toEqual([]);
  });

  it(`holds for every file of ${GATEWAY}/`, () => {
    const files = readdirSync(join(ROOT, GATEWAY)).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('build.ts');
    const found = files.flatMap((f) =>
      longFunctions(`${GATEWAY}/${f}`, readFileSync(join(ROOT, GATEWAY, f), 'utf8'), MAX_LINES),
    );
    expect(found).toEqual([]);
  });
});
