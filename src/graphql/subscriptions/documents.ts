// Subscription documents parsed and validated once per distinct text: a thousand subscribers sending the same
// document hold one syntax tree between them, not a thousand (docs/decisions/0033-light-sockets.md). The schema
// and rules are fixed for the server's life, so a text's outcome never changes; refusals are not kept. Whether a
// text's events may be executed once for callers of one visibility is decided here too, once per text.
import {
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  BREAK,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CALLER_INDEPENDENT_FIELDS } from '../types/caller-independent.ts';

/** Distinct texts kept; past it the least recently used is dropped (any client may send new texts). */
export const MAX_DOCUMENTS = 500;

export type ParsedDocument =
  | {
      kind: 'document';
      /** The kept text's number, never given to another text (while a text is kept, its number stays). */
      id: number;
      document: DocumentNode;
      /** It selects only fields of CALLER_INDEPENDENT_FIELDS: callers of one visibility may share its execution. */
      acrossCallers: boolean;
    }
  | { kind: 'unparsable'; error: unknown }
  | { kind: 'invalid'; errors: readonly GraphQLError[] };

export class SubscriptionDocuments {
  private readonly kept = new Map<string, { id: number; document: DocumentNode; acrossCallers: boolean }>();
  private lastId = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rules: readonly ValidationRule[],
    private readonly maxTokens: number,
    private readonly max = MAX_DOCUMENTS,
  ) {}

  /** The text's document, parsed and validated: the same object for every subscription that sends this text. */
  get(source: string): ParsedDocument {
    const known = this.kept.get(source);
    if (known) {
      // Moved to the back: the map's order is the order of last use.
      this.kept.delete(source);
      this.kept.set(source, known);
      return { kind: 'document', ...known };
    }
    let document: DocumentNode;
    try {
      document = parse(source, { maxTokens: this.maxTokens });
    } catch (error) {
      return { kind: 'unparsable', error };
    }
    const invalid = validate(this.schema, document, this.rules);
    if (invalid.length) return { kind: 'invalid', errors: invalid };
    if (this.kept.size >= this.max) this.kept.delete(this.kept.keys().next().value!);
    const kept = { id: ++this.lastId, document, acrossCallers: callerIndependent(this.schema, document) };
    this.kept.set(source, kept);
    return { kind: 'document', ...kept };
  }

  /** How many distinct texts are kept. */
  get size(): number {
    return this.kept.size;
  }
}

/**
 * True when every field the document selects, in every operation and fragment, is on the allow-list (or is
 * __typename): nothing it shows depends on who calls beyond their visibility. Anything else, unknown fields included,
 * is false: executed per caller.
 */
export function callerIndependent(schema: GraphQLSchema, document: DocumentNode): boolean {
  const types = new TypeInfo(schema);
  let independent = true;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field(node) {
        if (node.name.value === '__typename') return;
        const parent = types.getParentType()?.name;
        if (parent !== undefined && CALLER_INDEPENDENT_FIELDS.get(parent)?.has(node.name.value)) return;
        independent = false;
        return BREAK;
      },
    }),
  );
  return independent;
}
