// Objects resolved per request: the guard behind the cost estimate. Once a request has resolved more than
// GRAPHQL_MAX_OBJECTS, every further object throws at once, so no more loads start and the request ends with
// RESPONSE_TOO_LARGE instead of growing the process until it dies. GraphQL counts its fields against it
// (src/graphql/count-objects.ts); the loaders never read more rows than it has left.
import { formatCount, responseTooLarge, type DomainError } from '../domain/errors.ts';

export class ObjectBudget {
  resolved = 0;
  /** Set once the budget is spent; thrown by every object field from then on. */
  error: DomainError | null = null;

  constructor(readonly max: number) {}

  /** Objects this request may still resolve. */
  get left(): number {
    return Math.max(0, this.max - this.resolved);
  }

  add(count: number): void {
    this.resolved += count;
    if (this.resolved > this.max && !this.error) {
      this.error = responseTooLarge(
        `the answer holds more than ${formatCount(this.max)} objects (GRAPHQL_MAX_OBJECTS): execution stopped; ask ` +
          `for fewer nested lists, or pass take`,
        'objects',
      );
    }
    if (this.error) throw this.error;
  }
}
