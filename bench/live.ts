// Live matchday load: N open subscriptions (matchUpdated) on one replica while a referee sets a match's score and
// clock again and again; for every event, the delay until each subscriber has it, and the server's memory per
// socket. Run: npm run bench:live -- [--sockets 1000] [--updates 30] (`--matchday`: bench/matchday.ts). With
// DATABASE_URL (PostgreSQL) the events travel through LISTEN/NOTIFY as across replicas; without it, a fresh SQLite
// file and the in-process feed.
// The subscribers run in this process on the same machine: their JSON parsing is part of the figures.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '../prisma/seed/demo-seed.ts';
import { openDatabase } from '../src/db/client.ts';
import { startLoadTarget } from './load-target.ts';
import { runMatchday } from './matchday.ts';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string' },
    updates: { type: 'string', default: '30' },
    out: { type: 'string' },
    matchday: { type: 'boolean', default: false },
    companies: { type: 'string', default: '5' },
    'every-ms': { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '60' },
  },
});
const SOCKETS = Number(values.sockets ?? (values.matchday ? 5000 : 1000));
const UPDATES = Number(values.updates);
const databaseUrl = process.env.DATABASE_URL;

const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function main() {
  const target = await startLoadTarget(databaseUrl, {
    WS_MAX_SOCKETS_PER_ADDRESS: String(SOCKETS + 10),
    WS_MAX_SOCKETS: String(SOCKETS + 10),
  });
  const clients: Client[] = [];
  try {
    const login = await fetch(`${target.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'partners' },
      body: JSON.stringify({ email: 'manager@partners.test', password: DEMO_PASSWORD }),
    });
    const manager = ((await login.json()) as { token: string }).token;
    const matchId = target.futureMatchIds[0];
    // A match in play has kicked off: its kickoff is moved to a minute ago (setMatchResult refuses IN_PLAY before).
    const db = await openDatabase(target.database, { poolMax: 1 });
    await db.prisma.match.update({ where: { id: matchId }, data: { date: new Date(Date.now() - 60_000) } });
    await db.close();
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = await metric(target.url, 'prode_process_resident_memory_bytes');
    const heapBefore = await metric(target.url, 'prode_nodejs_heap_size_used_bytes');

    // received[k][i]: when subscriber i had update k.
    const received: number[][] = Array.from({ length: UPDATES }, () => []);
    const wsUrl = `${target.url.replace('http', 'ws')}/graphql`;
    const query = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
      match { id status homeTeamGoals awayTeamGoals elapsedTime } } }`;
    for (let i = 0; i < SOCKETS; i++) {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => {},
        connectionParams: {
          authorization: `Bearer ${target.playerTokens[i % target.playerTokens.length]}`,
          'x-app-path': target.appPath,
        },
      });
      clients.push(client);
      client.subscribe(
        { query, variables: { t: target.tournamentId } },
        {
          next: (r) => {
            const k = (r.data as { matchUpdated: { match: { elapsedTime: number } | null } }).matchUpdated.match
              ?.elapsedTime;
            if (typeof k === 'number' && k >= 1 && k <= UPDATES) received[k - 1][i] = performance.now();
          },
          error: () => {},
          complete: () => {},
        },
      );
    }
    const deadline = Date.now() + 120_000;
    while ((await metric(target.url, 'prode_live_subscriptions')) < SOCKETS) {
      if (Date.now() > deadline) throw new Error('the subscriptions did not all start');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfter = await metric(target.url, 'prode_process_resident_memory_bytes');
    const heapAfter = await metric(target.url, 'prode_nodejs_heap_size_used_bytes');

    const fromResponse: number[] = [];
    const fromRequest: number[] = [];
    const lastOfEvent: number[] = [];
    let missing = 0;
    let peakRss = rssAfter;
    for (let k = 1; k <= UPDATES; k++) {
      const sent = performance.now();
      const res = await fetch(`${target.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${manager}`, 'x-app-path': 'partners' },
        body: JSON.stringify({
          query: 'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
          variables: { i: { matchId, status: 'IN_PLAY', homeTeamGoals: k % 5, awayTeamGoals: 0, elapsedTime: k } },
        }),
      });
      const responded = performance.now();
      const body = (await res.json()) as { errors?: unknown };
      if (body.errors) throw new Error(`setMatchResult: ${JSON.stringify(body.errors)}`);
      const wait = Date.now() + 10_000;
      while (received[k - 1].filter(Boolean).length < SOCKETS && Date.now() < wait)
        await new Promise((r) => setTimeout(r, 5));
      const times = received[k - 1].filter(Boolean);
      missing += SOCKETS - times.length;
      for (const t of times) {
        fromResponse.push(t - responded);
        fromRequest.push(t - sent);
      }
      lastOfEvent.push(Math.max(...times) - responded);
      peakRss = Math.max(peakRss, await metric(target.url, 'prode_process_resident_memory_bytes'));
      await new Promise((r) => setTimeout(r, 100));
    }
    // With the sockets under updates: the last update delivered, nothing in flight.
    await new Promise((r) => setTimeout(r, 1000));
    const rssUpdated = await metric(target.url, 'prode_process_resident_memory_bytes');
    const heapUpdated = await metric(target.url, 'prode_nodejs_heap_size_used_bytes');
    fromResponse.sort((a, b) => a - b);
    fromRequest.sort((a, b) => a - b);
    lastOfEvent.sort((a, b) => a - b);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const medianP99 = (sorted: number[]) => `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.99))}`;
    const slowest = lastOfEvent.at(-1)!;
    const perSocket = (bytes: number) => `${(bytes / SOCKETS / 1024).toFixed(1)} KiB`;
    const rssFigures = [rssBefore, rssAfter, rssUpdated, peakRss].map(MiB).join(' / ');
    const perSocketUpdated = `${perSocket(rssUpdated - rssBefore)} / ${perSocket(heapUpdated - heapBefore)}`;
    const database = databaseUrl ? 'PostgreSQL (LISTEN/NOTIFY)' : 'SQLite (in-process feed)';
    const cpu = os.cpus();
    const report = `# Live matchday: ${SOCKETS} subscriptions on one replica

Generated by \`npm run bench:live -- --sockets ${SOCKETS} --updates ${UPDATES}\` on ${new Date().toISOString()}.
${cpu.length} x ${cpu[0]?.model.trim()}, Node ${process.version}, ${database}, demo data; the server and the ${SOCKETS}
graphql-ws clients on one machine (the clients' work competes with the server's for the same cores).

Each of ${SOCKETS} sockets holds one \`matchUpdated(tournamentId)\` subscription (match id, status, score, elapsed
time), spread over ${target.playerTokens.length} players of Demo Corp. A manager then sets the score and clock of one
match ${UPDATES} times in a row (\`setMatchResult\`, IN_PLAY), waiting for every subscriber to have each update.
The delay runs from the moment the write's response arrived (its transaction had committed and its event had been
handed to the feed) to the moment a subscriber had the event; "from the request" adds the write itself.

| Figure | Value |
|---|---|
| Deliveries (sockets x updates) | ${fromResponse.length} of ${SOCKETS * UPDATES} (${missing} missing) |
| Delay from the write's response: median / p99 | ${medianP99(fromResponse)} |
| Delay from the write's request: median / p99 | ${medianP99(fromRequest)} |
| Until the last subscriber had an update: median / max | ${ms(quantile(lastOfEvent, 0.5))} / ${ms(slowest)} |
| Server RSS before the sockets / with them / after the updates / peak | ${rssFigures} MiB |
| Memory per socket, idle (RSS / JS heap) | ${perSocket(rssAfter - rssBefore)} / ${perSocket(heapAfter - heapBefore)} |
| Memory per socket, after the updates (RSS / JS heap) | ${perSocketUpdated} |
`;
    writeFileSync(values.out ?? 'bench/LIVE.md', report);
    console.log(report);
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    await target.stop();
  }
}

const run = values.matchday
  ? () =>
      runMatchday({
        sockets: SOCKETS,
        companies: Number(values.companies),
        everyMs: Number(values['every-ms']),
        seconds: Number(values.seconds),
        out: values.out ?? 'bench/LIVE-MATCHDAY.md',
      }).then((report) => console.log(report))
  : main;
run().catch((err) => {
  console.error(err);
  process.exit(1);
});
