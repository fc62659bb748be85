// A graphql-ws client over loopback, as browsers' Apollo Client or urql would connect, and the server's own count
// of active subscriptions (so a test publishes only once the server listens).
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface LiveResult {
  data?: any;
  errors?: Array<{ message: string; extensions?: { code?: string; [k: string]: unknown } }>;
}

export interface Watch {
  /** Every result received so far, in order. */
  results: LiveResult[];
  /** Resolves with the result after the `count` already taken (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<LiveResult>;
  /** Set when the server ended the subscription (complete, or an error message). */
  ended: Promise<{ error?: unknown }>;
  /** True when nothing more than what was taken arrives within `ms`. */
  quiet(ms: number): Promise<boolean>;
}

export interface LiveClient {
  client: Client;
  subscribe(query: string, variables?: Record<string, unknown>): Watch;
  /** The close event the socket saw last (code, reason). */
  closed: Promise<{ code: number; reason: string }>;
  dispose(): Promise<void>;
}

/**
 * `address`: sent as X-Forwarded-For on the upgrade, for a server that trusts one proxy hop (TRUST_PROXY_HOPS=1),
 * so clients on loopback count as different addresses.
 */
export function liveClient(
  httpUrl: string,
  connectionParams: Record<string, string> = {},
  { address }: { address?: string } = {},
): LiveClient {
  let onClosed!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  const client = createClient({
    url: `${httpUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: address
      ? class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: { 'x-forwarded-for': address } });
          }
        }
      : WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    // Tests read the close event themselves (closed); graphql-ws would print it.
    onNonLazyError: () => {},
    on: {
      closed: (event) => {
        const e = event as { code: number; reason: string };
        onClosed({ code: e.code, reason: String(e.reason) });
      },
    },
  });
  client.on('error', () => {});
  return {
    client,
    closed,
    subscribe(query, variables) {
      const results: LiveResult[] = [];
      let taken = 0;
      let waiter: (() => void) | null = null;
      let end!: (v: { error?: unknown }) => void;
      const ended = new Promise<{ error?: unknown }>((r) => (end = r));
      client.subscribe(
        { query, variables },
        {
          next: (r) => {
            results.push(r as LiveResult);
            waiter?.();
          },
          error: (error) => {
            end({ error });
            waiter?.();
          },
          complete: () => {
            end({});
            waiter?.();
          },
        },
      );
      return {
        results,
        ended,
        async next(timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (results.length <= taken) {
            if (Date.now() > deadline) throw new Error(`no subscription result within ${timeoutMs} ms`);
            await Promise.race([new Promise<void>((r) => (waiter = r)), new Promise((r) => setTimeout(r, 50))]);
          }
          return results[taken++];
        },
        async quiet(ms) {
          await new Promise((r) => setTimeout(r, ms));
          return results.length === taken;
        },
      };
    },
    dispose: async () => {
      await client.dispose();
    },
  };
}

/** A live gauge of the server's /metrics (prode_live_sockets, prode_live_subscriptions, ...). */
export async function liveMetric(httpUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

/** The server's active subscriptions as /metrics tells them. */
export const activeSubscriptions = (httpUrl: string) => liveMetric(httpUrl, 'prode_live_subscriptions');

/** Waits until the server holds at least `n` active subscriptions. */
export async function untilSubscribed(httpUrl: string, n: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await activeSubscriptions(httpUrl)) < n) {
    if (Date.now() > deadline) throw new Error(`the server did not reach ${n} subscriptions`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
