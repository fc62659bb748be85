// No NUL character in any text input. PostgreSQL's text cannot hold one (it fails the statement, which would return
// 500) and SQLite ends a LIKE pattern at it; no name, message or password needs one. Checked once per request, on
// the document's string literals and the variables, for GraphQL and the REST routes' stored operations alike.
import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, visit, type DocumentNode } from 'graphql';
import type { Context } from './context.ts';
import { badInputBeforeExecution } from '../domain/errors.ts';

const NUL = '\u0000';

// Apollo hands every request of one document text the same parsed document: its literals are checked once.
const checkedDocuments = new WeakMap<DocumentNode, boolean>();

function literalWithNul(document: DocumentNode): boolean {
  const known = checkedDocuments.get(document);
  if (known !== undefined) return known;
  let found = false;
  visit(document, {
    StringValue(node) {
      if (!node.value.includes(NUL)) return undefined;
      found = true;
      return BREAK;
    },
  });
  checkedDocuments.set(document, found);
  return found;
}

/** The name of the first variable holding a NUL anywhere inside it (walked without recursion: variables nest deep). */
function variableWithNul(variables: Record<string, unknown> | undefined): string | null {
  for (const [name, value] of Object.entries(variables ?? {})) {
    const stack: unknown[] = [value];
    while (stack.length) {
      const v = stack.pop();
      if (typeof v === 'string') {
        if (v.includes(NUL)) return name;
      } else if (v && typeof v === 'object') {
        for (const [key, inner] of Object.entries(v)) {
          if (key.includes(NUL)) return name;
          stack.push(inner);
        }
      }
    }
  }
  return null;
}

export function textInputsPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          const variable = variableWithNul(request.variables);
          if (variable === null && !literalWithNul(document)) return;
          const where = variable === null ? 'a string argument' : `variable "$${variable}"`;
          throw badInputBeforeExecution(
            `${where} contains a NUL character (\\u0000), which no text may hold`,
            variable ?? undefined,
          );
        },
      };
    },
  };
}
