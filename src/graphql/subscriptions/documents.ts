// Subscription documents parsed and validated once per distinct text: a thousand subscribers sending the same
// document hold one syntax tree between them, not a thousand (docs/decisions/0033-light-sockets.md). The schema
// and rules are fixed for the server's life, so a text's outcome never changes; refusals are not kept.
import {
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';

/** Distinct texts kept; past it the least recently used is dropped (any client may send new texts). */
export const MAX_DOCUMENTS = 500;

export type ParsedDocument =
  | { kind: 'document'; document: DocumentNode }
  | { kind: 'unparsable'; error: unknown }
  | { kind: 'invalid'; errors: readonly GraphQLError[] };

export class SubscriptionDocuments {
  private readonly kept = new Map<string, DocumentNode>();

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
      return { kind: 'document', document: known };
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
    this.kept.set(source, document);
    return { kind: 'document', document };
  }

  /** How many distinct texts are kept. */
  get size(): number {
    return this.kept.size;
  }
}
