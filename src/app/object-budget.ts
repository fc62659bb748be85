// Objects resolved per request: the guard behind the cost estimate. Once a request has resolved more than
// GRAPHQL_MAX_OBJECTS, every further object throws at once, so no more loads start and the request ends with
// RESPONSE_TOO_LARGE instead of growing the process until it dies. GraphQL counts its fields against it
// (src/graphql/count-objects.ts); the loaders never read more rows than it has left.
import { formatCount, responseTooLarge, type DomainError } from '../domain/errors.ts';

export class ObjectBudget {
  resolved = 0;
  /** Set once the budget is spent; thrown by every object field from then on. */
  error: DomainError | null = null;
  /** Wider budgets this one also counts against (a live event's, src/graphql/subscriptions/executions.ts). */
  private readonly shared: SharedBudget[] = [];

  constructor(readonly max: number) {}

  /** Objects this request may still resolve. */
  get left(): number {
    let left = this.max - this.resolved;
    for (const budget of this.shared) left = Math.min(left, budget.left());
    return Math.max(0, left);
  }

  /** From now on every object also counts against `budget`, and its refusal stops this request as its own would. */
  share(budget: SharedBudget): void {
    this.shared.push(budget);
  }

  /**
   * What to wait for before the next object, when a wider budget asks: a turn of the event loop (a live event's
   * execution works in slices, so HTTP requests are not held up behind it), or forever once it has refused (the
   * execution is abandoned, not completed with an error per object left); null to go on at once.
   */
  pause(): Promise<void> | null {
    for (const budget of this.shared) {
      const pause = budget.pause();
      if (pause) return pause;
    }
    return null;
  }

  /** Set once a wider budget has abandoned this execution: what is left of it waits on this, forever. */
  halted(): Promise<never> | null {
    for (const budget of this.shared) {
      const halt = budget.halted();
      if (halt) return halt;
    }
    return null;
  }

  add(count: number): void {
    this.resolved += count;
    if (this.resolved > this.max && !this.error) {
      this.error = responseTooLarge(
        `the response holds more than ${formatCount(this.max)} objects (GRAPHQL_MAX_OBJECTS): execution stopped; ask ` +
          `for fewer nested lists, or pass take`,
        'objects',
      );
    }
    for (const budget of this.shared) {
      const refused = budget.add(count);
      if (refused && !this.error) this.error = refused;
    }
    if (this.error) throw this.error;
  }
}

/** A budget wider than one request's: it counts the objects of several, and refuses once they are too many. */
export interface SharedBudget {
  left(): number;
  /** Counts `count` more objects; the error to stop with once past the limit, else null. */
  add(count: number): DomainError | null;
  /** A turn of the event loop to wait for before the next object (or halted()'s promise); null to go on. */
  pause(): Promise<void> | null;
  /** Once it has refused, a promise that never settles: the execution stops where it is. */
  halted(): Promise<never> | null;
}
