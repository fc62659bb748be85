// Many graphql-ws subscribers in a process of their own, so that a test measures the server's heap without the
// clients' (test/helpers/live.ts has one client in the test's own process). Started by liveClientsProcess.
// Messages from the test: { sockets, url, tokens, appPath, query, variables }, then 'count' or 'stop'; answers
// 'subscribed' (every subscription sent), then { received } per 'count'.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface Start {
  sockets: number;
  url: string;
  tokens: string[];
  appPath: string;
  query: string;
  variables: Record<string, unknown>;
}

const clients: Client[] = [];
let received = 0;

process.on('message', async (message: Start | 'count' | 'stop') => {
  if (message === 'count') return process.send!({ received });
  if (message === 'stop') {
    await Promise.all(clients.map((c) => c.dispose()));
    return process.exit(0);
  }
  for (let i = 0; i < message.sockets; i++) {
    const client = createClient({
      url: `${message.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: () => {},
      connectionParams: {
        authorization: `Bearer ${message.tokens[i % message.tokens.length]}`,
        'x-app-path': message.appPath,
      },
    });
    clients.push(client);
    client.subscribe(
      { query: message.query, variables: message.variables },
      { next: () => void received++, error: () => {}, complete: () => {} },
    );
  }
  process.send!('subscribed');
});
