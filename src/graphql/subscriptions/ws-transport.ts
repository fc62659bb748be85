// graphql-ws's protocol (its makeServer, the library's way to bring a transport) over `ws` sockets, instead of its
// ready-made `use/ws`: what a socket holds while it waits is kept small, as thousands wait at once
// (docs/decisions/0033-light-sockets.md). A socket keeps the client's address only (not the upgrade request, whose
// headers and stream state would stay with it for its life), one timer pings every socket, and listeners are shared.
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket, { type WebSocketServer } from 'ws';

/** What a connection's context carries besides graphql-ws's own: where the socket came from. */
export interface SocketExtra {
  /** The client address, as the upgrade's throttles read it. */
  address: string;
}

export interface GraphqlWsTransport {
  /** Serves graphql-ws on a socket `wss.handleUpgrade` has just opened. */
  accept(socket: WebSocket, extra: SocketExtra): void;
  /** Closes every socket with 1001 (going away) and the server. */
  dispose(): Promise<void>;
}

/** No pong since the last ping: the socket is cut at the next round. */
const waitingForPong = new WeakSet<WebSocket>();

function onPong(this: WebSocket) {
  waitingForPong.delete(this);
}

export function graphqlWsTransport<P extends Record<string, unknown> | undefined>(
  options: ServerOptions<P, SocketExtra>,
  wss: WebSocketServer,
  keepAliveMs: number,
  log: FastifyBaseLogger,
): GraphqlWsTransport {
  const server = makeServer(options);
  const isProd = process.env.NODE_ENV === 'production';
  const internalError = (socket: WebSocket, err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    socket.close(CloseCode.InternalServerError, isProd || reason.length >= 124 ? 'Internal server error' : reason);
  };
  wss.options.handleProtocols = handleProtocols;
  wss.once('error', (err) => {
    log.error({ err }, 'subscriptions: the WebSocket server failed; every socket is closed');
    for (const client of wss.clients) internalError(client, err);
  });
  function onSocketError(this: WebSocket, err: Error) {
    log.warn({ err }, 'subscriptions: a socket failed and is closed');
    internalError(this, err);
  }
  // Every keepAliveMs each open socket is pinged; one that has not answered the last ping by then is cut off.
  const pings =
    keepAliveMs > 0 && Number.isFinite(keepAliveMs)
      ? setInterval(() => {
          for (const socket of wss.clients) {
            if (socket.readyState !== WebSocket.OPEN) continue;
            if (waitingForPong.has(socket)) {
              socket.terminate();
              continue;
            }
            waitingForPong.add(socket);
            socket.ping();
          }
        }, keepAliveMs)
      : null;
  pings?.unref();

  return {
    accept(socket, extra) {
      socket.once('error', onSocketError);
      socket.on('pong', onPong);
      // Methods, not arrow properties: tsx names each arrow function kept in a property, which gives every copy a
      // property dictionary of its own.
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send(data) {
            return new Promise<void>((resolve, reject) => {
              if (socket.readyState !== WebSocket.OPEN) return resolve();
              socket.send(data, (err) => (err ? reject(err) : resolve()));
            });
          },
          close(code, reason) {
            socket.close(code, reason);
          },
          onMessage(cb) {
            socket.on('message', async (data) => {
              try {
                await cb(String(data));
              } catch (err) {
                log.error({ err }, 'subscriptions: a message could not be handled; the socket is closed');
                internalError(socket, err);
              }
            });
          },
        },
        extra,
      );
      socket.once('close', (code, reason) => {
        waitingForPong.delete(socket);
        void closed(code, String(reason));
      });
    },
    async dispose() {
      if (pings) clearInterval(pings);
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
