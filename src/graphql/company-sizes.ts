// Active users per company, for the cost estimates (predictions per match are bounded by the company's people).
// Counted off the request path, at start and then every minute: an estimate needs no fresher figure, and a
// count inside requests would add a statement to the ones that ask for company-sized lists.
import type { Db } from '../db/client.ts';
import type { CostSizes } from './cost.ts';

const REFRESH_MS = 60_000;
/** Before any count has succeeded: a large company, so estimates err on the side of refusing. */
const UNCOUNTED = 1000;

export class CompanySizes {
  private users = new Map<number, number>();
  private largest = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly prisma: Db,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** The sizes for a request acting on `companyId`; without one (anonymous, or unknown yet), the largest company's. */
  for(companyId: number | null | undefined): CostSizes {
    const known = companyId == null ? undefined : this.users.get(companyId);
    return { companyUsers: Math.max(1, known ?? (this.largest || UNCOUNTED)) };
  }

  async refresh(): Promise<void> {
    const groups = await this.prisma.user.groupBy({
      by: ['companyId'],
      where: { deletedAt: null },
      _count: { _all: true },
    });
    this.users = new Map(groups.map((g) => [g.companyId, g._count._all]));
    this.largest = groups.reduce((most, g) => Math.max(most, g._count._all), 0);
  }

  /** A first count; a failure is the database's (reported by /readyz), and the next minute tries again. */
  async start(): Promise<void> {
    await this.refresh().catch(this.onError);
    this.timer = setInterval(() => void this.refresh().catch(this.onError), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
