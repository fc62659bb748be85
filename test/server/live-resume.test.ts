// Resuming across replicas (README, "Resuming across a replica's shutdown or crash"): three gateway processes on one
// PostgreSQL; a graphql-ws client configured as the README shows follows a match through replica A, which stops
// (SIGTERM: sockets close with 1001), then through replica B, which is killed (SIGKILL: no close frame), while the
// referee writes through replica C. Every result reaches the client once, in order, with no gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';
import { startReplicas, type Replicas } from '../helpers/replicas.ts';
import { untilSubscribed } from '../helpers/live.ts';

describe.runIf(suiteProvider === 'postgresql')('resuming a subscription across replicas', () => {
  let r: Replicas;
  let client: Client | null = null;
  beforeAll(async () => {
    r = await startReplicas(3, { LIVE_RANKING_INTERVAL_MS: '0' });
  }, 120_000);
  afterAll(async () => {
    await client?.dispose();
    await r?.stop();
  });

  const post = async (url: string, query: string, variables: object, token?: string, appPath?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(appPath ? { 'x-app-path': appPath } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
  };
  const login = async (email: string, appPath?: string) => {
    const body = await post(
      r.urls[2],
      'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
      { e: email, p: DEMO_PASSWORD },
      undefined,
      appPath,
    );
    return body.data!.login.token as string;
  };

  it('a stop and a crash lose no result and repeat none', async () => {
    const [player, manager] = [await login('player1@demo.test', 'demo'), await login('manager@partners.test')];
    const matchId = r.demo.matches.final;
    await r.db.prisma.match.update({ where: { id: matchId }, data: { date: new Date(Date.now() - 60_000) } });
    let goals = 0;
    const score = async () => {
      goals++;
      const body = await post(
        r.urls[2],
        'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
        { i: { matchId, status: 'IN_PLAY', homeTeamGoals: goals, awayTeamGoals: 0, elapsedTime: goals } },
        manager,
      );
      expect(body.errors).toBeUndefined();
    };

    // The README's configuration; the proxy that sends a reconnect to a live replica is this list: A, B, then C.
    const wsUrls = r.urls.map((u) => `${u.replace(/^http/, 'ws')}/graphql`);
    let connects = 0;
    client = createClient({
      url: () => wsUrls[Math.min(connects++, wsUrls.length - 1)],
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${player}`, 'x-app-path': 'demo' },
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: () => new Promise((resolve) => setTimeout(resolve, 300)),
    });
    const payload = {
      query: `subscription($t: Int!, $after: String) {
        matchUpdated(tournamentId: $t, after: $after) { cursor missedEvents match { id homeTeamGoals elapsedTime } }
      }`,
      variables: { t: r.demo.tournament, after: null as string | null },
    };
    const heard: Array<{ elapsedTime: number; cursor: string }> = [];
    const missed: unknown[] = [];
    client.subscribe(payload, {
      next: ({ data }) => {
        const event = (data as any).matchUpdated;
        if (event.cursor) payload.variables.after = event.cursor;
        if (event.missedEvents) missed.push(event);
        else heard.push({ elapsedTime: event.match.elapsedTime, cursor: event.cursor });
      },
      error: (err) => missed.push(err),
      complete: () => {},
    });
    const until = async (n: number) => {
      const deadline = Date.now() + 20_000;
      while (heard.length < n) {
        if (Date.now() > deadline) throw new Error(`heard ${heard.length} of ${n}: ${JSON.stringify(heard)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await untilSubscribed(r.urls[0], 1, 20_000);
    await score();
    await until(goals);
    expect(connects).toBe(1);

    // A stops: results keep coming while the client is away.
    const stopping = r.services[0].stop('SIGTERM');
    for (let i = 0; i < 3; i++) await score();
    await stopping;
    await until(goals);
    expect(connects).toBe(2);
    await score();
    await until(goals);

    // B is killed: no close frame, the socket just ends.
    await r.services[1].stop('SIGKILL');
    for (let i = 0; i < 3; i++) await score();
    await until(goals);
    expect(connects).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(missed).toEqual([]);
    // Each result's event once, in the order they were kept: exactly the match's events in the log.
    const kept = await r.db.prisma.liveEvent.findMany({
      where: { topic: `match:${r.demo.tournament}` },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    expect(kept).toHaveLength(goals);
    expect(heard.map((h) => Number(h.cursor))).toEqual(kept.map((k) => k.id));
    // Shown as the match is now: the last one has the last result.
    expect(heard[heard.length - 1].elapsedTime).toBe(goals);
  }, 120_000);
});
