// A subscription's caller between events (src/graphql/subscriptions/subscriber.ts), on its own: the rows its
// subscribers hold are one object per distinct row, and an event with no read due makes no promise.
import { describe, expect, it } from 'vitest';
import type { RequestAuth } from '../../../src/auth/request-auth.ts';
import type { CompanyRow, UserRow } from '../../../src/db/rows.ts';
import type { Context } from '../../../src/graphql/context.ts';
import { SharedRows, SubscriberChannel, type Subscribers } from '../../../src/graphql/subscriptions/subscriber.ts';
import type { OpenedRequest, ScopeSources } from '../../../src/http/request-scope.ts';
import { Fanout, type LiveBus } from '../../../src/live/bus.ts';
import { newOutcome } from '../../../src/observability/request-outcome.ts';

/** A row as each read returns it: a new object every time, equal to the last while nothing changed. */
const company = (name = 'Demo Corp') =>
  ({ id: 1, name, appPath: 'demo', createdAt: new Date(0), featureSettings: { areas: {} } }) as unknown as CompanyRow;
const user = (id: number) => ({ id, companyId: 1, role: 'player', createdAt: new Date(0) }) as unknown as UserRow;
const authOf = (viewer: UserRow, tenant: CompanyRow): RequestAuth => ({
  viewer,
  viewerCompany: tenant,
  tenant,
  viewerError: null,
  tenantError: null,
});

describe('SharedRows', () => {
  it('gives subscribers one object per distinct row: one company row for its players, one user row per player', () => {
    const rows = new SharedRows();
    const a = rows.auth(authOf(user(1), company()));
    const b = rows.auth(authOf(user(2), company()));
    const c = rows.auth(authOf(user(1), company()));
    expect(b.tenant).toBe(a.tenant);
    expect(a.viewerCompany).toBe(a.tenant);
    expect(c.viewer).toBe(a.viewer);
    expect(b.viewer).not.toBe(a.viewer);
    expect(rows.size).toBe(3);
  });

  it('keeps a row that changed apart from the one read before', () => {
    const rows = new SharedRows();
    const before = rows.auth(authOf(user(1), company()));
    const after = rows.auth(authOf(user(1), company('Demo Corp renamed')));
    expect(after.tenant).not.toBe(before.tenant);
    expect(after.tenant!.name).toBe('Demo Corp renamed');
  });
});

describe('SubscriberChannel', () => {
  const subscribers = (rows: SharedRows): Subscribers => ({
    sources: { live: new Fanout(() => {}) as unknown as LiveBus } as ScopeSources,
    log: { warn: () => {} } as unknown as Subscribers['log'],
    parked: {} as OpenedRequest,
    rows,
  });
  const client = () => ({ ip: '127.0.0.1', outcome: newOutcome() }) as unknown as Context['client'];

  it('answers an event with no read due at once, with no promise; channels of one company share its row', () => {
    const shared = subscribers(new SharedRows());
    const open = (id: number) =>
      new SubscriberChannel(shared, {} as Context, client(), {}, authOf(user(id), company()), {}, '127.0.0.1');
    const [a, b] = [open(1), open(2)];
    expect(a.refresh()).toBe(true);
    expect(b.caller().tenant).toBe(a.caller().tenant);
    a.reauthenticate();
    // A revocation makes the next event read the caller again: that one waits for the database.
    const read = a.refresh();
    expect(read).toBeInstanceOf(Promise);
    void (read as Promise<boolean>).catch(() => {});
  });
});
