// `npm run bench:live -- --matchday [--sockets 5000] [--companies 5] [--every-ms 2000] [--seconds 60]`: a final on a
// matchday. Two gateway replicas on one PostgreSQL (DATABASE_URL, an empty database); N sockets split between them,
// across K companies that all play the demo tournament, each socket holding matchUpdated and rankingChanged on it,
// each person with a prediction of the match; a referee corrects the final result every 2 s for a minute, so
// every result rescores the match and moves every company's ranking. Reports delivery
// completeness, delay from the write's response (median, p99, last subscriber), SQL statements of event executions
// per result (the replicas' own count, prode_live_sql_statements_total) and memory per socket (RSS and JS heap of
// each replica, before the sockets and with them under updates). The clients run in this process.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '../prisma/seed/demo-seed.ts';
import { signAccessToken } from '../src/auth/tokens.ts';
import { openDatabase } from '../src/db/client.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';
import { startLoadTarget, type StartedTarget } from './load-target.ts';

export interface MatchdayOptions {
  sockets: number;
  companies: number;
  everyMs: number;
  seconds: number;
  out: string;
  /** PostgreSQL, empty or migrated without data (default DATABASE_URL). */
  databaseUrl?: string;
}

const JWT_SECRET = 'l'.repeat(48); // startLoadTarget's
const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
};
const sumOf = async (urls: string[], name: string) =>
  (await Promise.all(urls.map((u) => metric(u, name)))).reduce((a, b) => a + b, 0);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? 'n/a' : `${n.toFixed(0)} ms`);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
/** Sockets opened at once while the subscriptions start. */
const CONNECT_BATCH = 250;

/** K companies playing the demo tournament, their people, and each person's prediction of the match. */
async function populate(databaseUrl: string, o: MatchdayOptions, tournamentId: number, matchId: number) {
  const db = await openDatabase({ provider: 'postgresql', url: databaseUrl }, { poolMax: 2 });
  try {
    const people: Array<{ userId: number; companyId: number; appPath: string }> = [];
    const perCompany = Math.ceil(o.sockets / o.companies);
    for (let c = 0; c < o.companies; c++) {
      const appPath = `matchday${c + 1}`;
      const company = await db.prisma.company.create({
        data: {
          ...DEFAULT_COMPANY_JSON,
          name: `Matchday ${c + 1}`,
          code: `MD${c + 1}`,
          appPath,
          maxUsersAmount: perCompany * 2,
        } as never,
      });
      await db.prisma.companyTournament.create({ data: { companyId: company.id, tournamentId } });
      await db.prisma.user.createMany({
        data: Array.from({ length: perCompany }, (_, i) => ({
          ...DEFAULT_USER_JSON,
          companyId: company.id,
          email: `fan${i + 1}@${appPath}.test`,
          name: `Fan ${c + 1}.${i + 1}`,
          externalId: `${appPath}-${i + 1}`,
          loginProviderId: `${appPath}-${i + 1}`,
        })) as never,
      });
      const users = await db.prisma.user.findMany({ where: { companyId: company.id }, select: { id: true } });
      await db.prisma.prediction.createMany({
        data: users.map((u, i) => ({ userId: u.id, matchId, homeTeamGoals: i % 4, awayTeamGoals: (i >> 2) % 3 })),
      });
      for (const u of users) people.push({ userId: u.id, companyId: company.id, appPath });
    }
    return people.slice(0, o.sockets);
  } finally {
    await db.close();
  }
}

/** Runs the matchday and writes its report to `o.out`; returns the report. */
export async function runMatchday(o: MatchdayOptions): Promise<string> {
  const databaseUrl = o.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('bench:live --matchday runs on PostgreSQL: set DATABASE_URL (an empty database)');
  // Every client is on this machine's one address: the per-address shares (sockets, queued executions, objects) are
  // for the real world, where a matchday's people come from many.
  const env = {
    WS_MAX_SOCKETS: String(o.sockets + 10),
    WS_MAX_SOCKETS_PER_ADDRESS: String(o.sockets + 10),
    WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '5',
    LIVE_MAX_QUEUED_EXECUTIONS: String(o.sockets * 40),
    LIVE_MAX_OBJECTS_PER_ADDRESS: '1000000000',
    LIVE_MAX_OBJECTS_IN_FLIGHT: '1000000000',
  };
  const replicas: StartedTarget[] = [await startLoadTarget(databaseUrl, env)];
  replicas.push(await startLoadTarget(databaseUrl, { ...env, SEED_ON_EMPTY: 'false' }));
  const urls = replicas.map((r) => r.url);
  const clients: Client[] = [];
  try {
    const { tournamentId } = replicas[0];
    const db = await openDatabase({ provider: 'postgresql', url: databaseUrl }, { poolMax: 1 });
    const match = await db.prisma.match.findFirstOrThrow({ where: { tournamentId }, orderBy: { id: 'asc' } });
    await db.prisma.match.update({ where: { id: match.id }, data: { date: new Date(Date.now() - 60_000) } });
    await db.close();
    const people = await populate(databaseUrl, o, tournamentId, match.id);
    const login = await fetch(`${urls[0]}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'partners' },
      body: JSON.stringify({ email: 'manager@partners.test', password: DEMO_PASSWORD }),
    });
    const manager = ((await login.json()) as { token: string }).token;
    await sleep(2000);
    const before = await Promise.all(
      urls.map(async (u) => ({
        rss: await metric(u, 'prode_process_resident_memory_bytes'),
        heap: await metric(u, 'prode_nodejs_heap_size_used_bytes'),
      })),
    );

    const updates = Math.max(1, Math.floor((o.seconds * 1000) / o.everyMs));
    // matchAt[k][i]: when socket i had result k; rankingAt[i]: when socket i last had a rankingChanged.
    const matchAt: number[][] = Array.from({ length: updates }, () => []);
    const rankingAt: number[][] = Array.from({ length: o.sockets }, () => []);
    const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { cursor match { id homeTeamGoals } } }`;
    const RANKING = `subscription($t: Int!) { rankingChanged(tournamentId: $t) { cursor me { position points } } }`;
    // Why an event was not delivered: the errors the clients were sent (by subscription and code), and how their
    // sockets closed.
    const errors = new Map<string, number>();
    const count = (key: string) => errors.set(key, (errors.get(key) ?? 0) + 1);
    const countErrors = (field: string, list: readonly { extensions?: Record<string, unknown> }[]) => {
      for (const e of list) count(`${field}: ${String(e.extensions?.code ?? 'no code')}`);
    };
    const sink = (field: string, next: (data: Record<string, unknown> | null) => void) => ({
      next: (r: { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] }) => {
        if (r.errors) countErrors(field, r.errors);
        next((r.data ?? null) as Record<string, unknown> | null);
      },
      error: (err: unknown) => {
        if (Array.isArray(err)) countErrors(`${field} refused`, err);
        else count(`${field} ended: socket closed ${(err as { code?: number }).code ?? String(err)}`);
      },
      complete: () => {},
    });
    const connect = async (i: number) => {
      const person = people[i];
      const token = await signAccessToken(
        { userId: person.userId, companyId: person.companyId, role: 'player', tokenVersion: 0 },
        JWT_SECRET,
        3600,
      );
      const client = createClient({
        url: `${urls[i % urls.length].replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => {},
        connectionParams: { authorization: `Bearer ${token}`, 'x-app-path': person.appPath },
      });
      clients.push(client);
      const ready = new Promise<void>((resolve) => {
        client.on('connected', () => resolve());
        client.on('closed', () => resolve());
      });
      client.subscribe(
        { query: MATCH, variables: { t: tournamentId } },
        sink('matchUpdated', (d) => {
          const k = (d?.matchUpdated as { match?: { homeTeamGoals?: number } } | undefined)?.match?.homeTeamGoals;
          if (typeof k === 'number' && k >= 1 && k <= updates) matchAt[k - 1][i] = performance.now();
        }),
      );
      client.subscribe(
        { query: RANKING, variables: { t: tournamentId } },
        sink('rankingChanged', (d) => {
          if (d?.rankingChanged) rankingAt[i].push(performance.now());
        }),
      );
      await ready;
    };
    // In batches: all at once, the replicas would not read every connection's init within its wait
    // (CONNECTION_INIT_WAIT_MS) and close the late ones.
    const startedAt = performance.now();
    for (let from = 0; from < people.length; from += CONNECT_BATCH)
      await Promise.all(people.slice(from, from + CONNECT_BATCH).map((_, j) => connect(from + j)));
    const deadline = Date.now() + 300_000;
    let subscribed = 0;
    while ((subscribed = await sumOf(urls, 'prode_live_subscriptions')) < 2 * o.sockets) {
      if (Date.now() > deadline) break;
      await sleep(500);
    }
    const startSeconds = (performance.now() - startedAt) / 1000;
    await sleep(2000);
    const statementsBefore = await sumOf(urls, 'prode_live_sql_statements_total');

    // A home win, then an away win, and so on: each correction changes the outcome, so every ranking moves (the same
    // outcome again would leave the standings as they were, and no ranking event would be due).
    const away = (k: number) => (k % 2 === 1 ? 0 : k + 1);
    const responded: number[] = [];
    const peak = before.map((b) => b.rss);
    for (let k = 1; k <= updates; k++) {
      const started = performance.now();
      const res = await fetch(`${urls[k % urls.length]}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${manager}`, 'x-app-path': 'partners' },
        body: JSON.stringify({
          query: 'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
          variables: { i: { matchId: match.id, status: 'FINISHED', homeTeamGoals: k, awayTeamGoals: away(k) } },
        }),
      });
      responded.push(performance.now());
      const body = (await res.json()) as { errors?: unknown };
      if (body.errors) throw new Error(`setMatchResult: ${JSON.stringify(body.errors)}`);
      for (const [j, u] of urls.entries())
        peak[j] = Math.max(peak[j], await metric(u, 'prode_process_resident_memory_bytes'));
      await sleep(Math.max(0, o.everyMs - (performance.now() - started)));
    }
    // The last result's events, and the coalesced ranking event at the end of its interval.
    await sleep(5000);
    const statements = (await sumOf(urls, 'prode_live_sql_statements_total')) - statementsBefore;
    const after = await Promise.all(
      urls.map(async (u) => ({
        rss: await metric(u, 'prode_process_resident_memory_bytes'),
        heap: await metric(u, 'prode_nodejs_heap_size_used_bytes'),
      })),
    );

    const delays: number[] = [];
    const lastOf: number[] = [];
    let delivered = 0;
    // A subscriber still sending an earlier result is sent only the newest of those queued meanwhile (stream.ts).
    let superseded = 0;
    for (let k = 0; k < updates; k++) {
      const times = matchAt[k].filter(Boolean);
      delivered += times.length;
      for (let i = 0; i < o.sockets; i++)
        if (!matchAt[k][i] && matchAt.slice(k + 1).some((later) => later[i])) superseded++;
      for (const t of times) delays.push(t - responded[k]);
      if (times.length) lastOf.push(Math.max(...times) - responded[k]);
    }
    const lastResult = responded[updates - 1];
    const rankingDelays: number[] = [];
    let rankingComplete = 0;
    for (const times of rankingAt) {
      const afterLast = times.find((t) => t >= lastResult);
      if (afterLast !== undefined) {
        rankingComplete++;
        rankingDelays.push(afterLast - lastResult);
      }
    }
    delays.sort((a, b) => a - b);
    lastOf.sort((a, b) => a - b);
    rankingDelays.sort((a, b) => a - b);
    const perSocket = (i: number, key: 'rss' | 'heap') =>
      `${((after[i][key] - before[i][key]) / (o.sockets / urls.length) / 1024).toFixed(1)} KiB`;
    const rankingDelay = `${ms(quantile(rankingDelays, 0.5))} / ${ms(quantile(rankingDelays, 0.99))}`;
    const memory = `${perSocket(0, 'rss')} / ${perSocket(1, 'rss')}; ${perSocket(0, 'heap')} / ${perSocket(1, 'heap')}`;
    const cpu = os.cpus();
    const report = `# Matchday: ${o.sockets} sockets, ${o.companies} companies, two replicas

Generated by \`DATABASE_URL=… npm run bench:live -- --matchday --sockets ${o.sockets} --companies ${o.companies}\`
on ${new Date().toISOString()}. ${cpu.length} x ${cpu[0]?.model.trim()}, Node ${process.version}, PostgreSQL; two
gateway processes and the ${o.sockets} graphql-ws clients on one machine (the clients compete for the same cores).

Each socket holds \`matchUpdated\` and \`rankingChanged\` on the demo tournament, as one person of ${o.companies}
companies that play it (each person predicted the match); sockets alternate between the replicas. A referee sets the
match's final result ${updates} times, a home win and an away win in turn (a correction each: every prediction
rescored, every ranking moved), every ${o.everyMs} ms, through either replica. Delays run from the write's response.
A \`rankingChanged\` counts as delivered when the socket had one after the last result (they are coalesced per
company, LIVE_RANKING_INTERVAL_MS).

| Figure | Value |
|---|---|
| Subscriptions started; time to start them | ${subscribed} of ${2 * o.sockets}; ${startSeconds.toFixed(0)} s |
| matchUpdated delivered (sockets x results) | ${delivered} of ${o.sockets * updates} |
| matchUpdated not sent for a newer result already queued | ${superseded} |
| matchUpdated delay: median / p99 | ${ms(quantile(delays, 0.5))} / ${ms(quantile(delays, 0.99))} |
| Until the last subscriber had a result: median / max | ${ms(quantile(lastOf, 0.5))} / ${ms(lastOf.at(-1) ?? NaN)} |
| rankingChanged after the last result; delay median / p99 | ${rankingComplete} of ${o.sockets}; ${rankingDelay} |
| rankingChanged received in all (coalesced per company) | ${rankingAt.reduce((n, times) => n + times.length, 0)} |
| SQL statements of event executions per result (both replicas) | ${(statements / updates).toFixed(1)} |
| Memory per socket, replica 1 / 2 (RSS; JS heap) | ${memory} |
| Peak RSS, replica 1 / 2 | ${(peak[0] / 2 ** 20).toFixed(0)} / ${(peak[1] / 2 ** 20).toFixed(0)} MiB |
`;
    const errorRows = [...errors].sort((a, b) => b[1] - a[1]).map(([what, n]) => `| ${what} | ${n} |`);
    const settingRows = Object.entries(env).map(([name, value]) => `| ${name} | ${value} |`);
    const full = `${report}
Errors the clients were sent, by subscription and code (none: every undelivered event is explained above):

| Subscription: code | Count |
|---|---|
${errorRows.join('\n') || '| none | 0 |'}

Settings the replicas ran with, as an operator would set them for a matchday with every client on one address:

| Setting | Value |
|---|---|
${settingRows.join('\n')}
`;
    writeFileSync(o.out, full);
    return full;
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.stop()));
  }
}
