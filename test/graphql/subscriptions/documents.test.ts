// Subscription documents (src/graphql/subscriptions/documents.ts): parsed and validated once per distinct text, so
// subscribers sending the same document hold one syntax tree, and the kept texts stay bounded.
import { specifiedRules } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SubscriptionDocuments } from '../../../src/graphql/subscriptions/documents.ts';
import { getSchema } from '../../../src/graphql/schema.ts';

const schema = getSchema(false);
const text = (t: number) => `subscription { matchUpdated(tournamentId: ${t}) { missedEvents match { id } } }`;

describe('SubscriptionDocuments', () => {
  it('hands every subscription of one text the same parsed document', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000);
    const first = documents.get(text(1));
    const second = documents.get(text(1));
    expect(first.kind).toBe('document');
    expect(second.kind === 'document' && first.kind === 'document' && second.document === first.document).toBe(true);
    const other = documents.get(text(2));
    expect(other.kind === 'document' && first.kind === 'document' && other.document !== first.document).toBe(true);
    expect(documents.size).toBe(2);
  });

  it('keeps no refusal: a text that does not parse or validate is refused each time it is sent', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000);
    expect(documents.get('subscription {').kind).toBe('unparsable');
    expect(documents.get('subscription { noSuchField }').kind).toBe('invalid');
    expect(documents.get('subscription { noSuchField }').kind).toBe('invalid');
    expect(documents.size).toBe(0);
  });

  it('keeps at most its bound of texts, dropping the least recently used', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000, 3);
    const kept = documents.get(text(1));
    documents.get(text(2));
    documents.get(text(3));
    documents.get(text(1)); // used again: text 2 is now the oldest
    documents.get(text(4));
    expect(documents.size).toBe(3);
    const again = documents.get(text(1));
    expect(again.kind === 'document' && kept.kind === 'document' && again.document === kept.document).toBe(true);
    expect(documents.size).toBe(3);
  });
});
