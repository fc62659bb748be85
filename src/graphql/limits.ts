// Validation rules that refuse a document before it runs: too deep, or too many fields once fragments are
// expanded (which also bounds aliases and fragments used to multiply work).
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { documentFragments } from './cost.ts';

interface Measure {
  depth: number;
  fields: number;
}

function measure(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  budget: number,
): Measure {
  let depth = 0;
  let fields = 0;
  for (const sel of set.selections) {
    if (fields > budget) break; // already over: stop walking a hostile document
    if (sel.kind === Kind.FIELD) {
      fields++;
      if (sel.selectionSet) {
        const inner = measure(sel.selectionSet, fragments, visiting, budget - fields);
        depth = Math.max(depth, inner.depth + 1);
        fields += inner.fields;
      } else {
        depth = Math.max(depth, 1);
      }
    } else {
      const target = sel.kind === Kind.INLINE_FRAGMENT ? sel : fragments.get(sel.name.value);
      const name = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : null;
      if (!target || (name && visiting.has(name))) continue; // unknown or cyclic: other rules report it
      if (name) visiting.add(name);
      const inner = measure(target.selectionSet, fragments, visiting, budget - fields);
      if (name) visiting.delete(name);
      depth = Math.max(depth, inner.depth);
      fields += inner.fields;
    }
  }
  return { depth, fields };
}

export function queryLimitsRule(maxDepth: number, maxFields: number) {
  return (context: ValidationContext): ASTVisitor => {
    // A Map: a spread of an undefined fragment named like an Object.prototype member ("...constructor") must find
    // nothing, not the prototype's function.
    const fragments = documentFragments(context.getDocument());
    return {
      OperationDefinition(node) {
        const m = measure(node.selectionSet, fragments, new Set(), maxFields);
        if (m.depth > maxDepth) {
          context.reportError(
            new GraphQLError(`query depth ${m.depth} exceeds the maximum of ${maxDepth}`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT', limit: 'depth' },
            }),
          );
        }
        if (m.fields > maxFields) {
          context.reportError(
            new GraphQLError(
              `query selects more than ${maxFields} fields (complexity limit; aliases and fragments count each time ` +
                `they apply)`,
              { nodes: [node], extensions: { code: 'BAD_USER_INPUT', limit: 'complexity' } },
            ),
          );
        }
      },
    };
  };
}

/**
 * Aliases let one document ask the same expensive field many times (`a1: ranking ... a500: ranking`); the field
 * budget bounds that too, but only loosely, so aliases get their own small budget.
 */
export function aliasLimitRule(maxAliases: number) {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias || reported) return;
        aliases++;
        if (aliases > maxAliases) {
          reported = true;
          context.reportError(
            new GraphQLError(`the document uses more than ${maxAliases} aliases`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT', limit: 'aliases' },
            }),
          );
        }
      },
    };
  };
}
