// Ranking events coalesced per tournament and company (src/live/ranking-coalescer.ts): the first of a quiet interval
// goes out at once, a burst within it goes out once at its end carrying the last state, companies and tournaments
// apart from each other, and an event for every company carries the company events that come while it waits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RankingCoalescer } from '../../src/live/ranking-coalescer.ts';
import type { LiveEvent } from '../../src/live/events.ts';

type RankingEvent = Extract<LiveEvent, { kind: 'ranking' }>;
const ranking = (tournamentId: number, companyId?: number): RankingEvent =>
  companyId === undefined ? { kind: 'ranking', tournamentId } : { kind: 'ranking', tournamentId, companyId };

afterEach(() => vi.useRealTimers());

function coalescer(intervalMs = 1000) {
  vi.useFakeTimers();
  const out: RankingEvent[] = [];
  return { c: new RankingCoalescer(intervalMs, (e) => out.push(e)), out };
}

describe('ranking events coalesced', () => {
  it('the first goes out at once; a burst within the interval once, at its end', () => {
    const { c, out } = coalescer();
    c.offer(ranking(1));
    expect(out).toEqual([ranking(1)]);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(50);
      c.offer(ranking(1));
    }
    expect(out).toHaveLength(1);
    vi.advanceTimersByTime(499);
    expect(out).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([ranking(1), ranking(1)]);
    // Quiet for a whole interval since: the next goes out at once again.
    vi.advanceTimersByTime(1000);
    c.offer(ranking(1));
    expect(out).toHaveLength(3);
  });

  it('each company and tournament has its own interval; an event for every company carries theirs', () => {
    const { c, out } = coalescer();
    c.offer(ranking(1, 10));
    c.offer(ranking(1, 20));
    c.offer(ranking(2, 10));
    expect(out).toEqual([ranking(1, 10), ranking(1, 20), ranking(2, 10)]);
    c.offer(ranking(1));
    c.offer(ranking(1));
    expect(out).toHaveLength(4);
    // Within the interval of the event for every company: it waits, and company 10's change rides with it.
    c.offer(ranking(1, 10));
    vi.advanceTimersByTime(1000);
    expect(out.slice(4)).toEqual([ranking(1)]);
  });

  it('the event that goes out at the end carries the newest cursor of those it stands for', () => {
    const { c, out } = coalescer();
    c.offer({ ...ranking(1, 10), cursor: 5 });
    c.offer({ ...ranking(1, 10), cursor: 7 });
    c.offer({ ...ranking(1, 10), cursor: 9 });
    // The event for every company goes out at once and carries company 10's waiting one: no cursor goes back.
    c.offer({ ...ranking(1), cursor: 10 });
    c.offer({ ...ranking(1), cursor: 11 });
    // Company 20's change rides with the waiting event for every company, and so does its cursor.
    c.offer({ ...ranking(1, 20), cursor: 12 });
    vi.advanceTimersByTime(1000);
    expect(out).toEqual([
      { ...ranking(1, 10), cursor: 5 },
      { ...ranking(1), cursor: 10 },
      { ...ranking(1), cursor: 12 },
    ]);
  });

  it('0 lets every event through; closing drops what waits', () => {
    const plain = coalescer(0);
    for (let i = 0; i < 3; i++) plain.c.offer(ranking(1));
    expect(plain.out).toHaveLength(3);
    const { c, out } = coalescer();
    c.offer(ranking(1));
    c.offer(ranking(1));
    c.close();
    vi.advanceTimersByTime(5000);
    expect(out).toHaveLength(1);
  });
});
