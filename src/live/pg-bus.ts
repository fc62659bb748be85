// The live feed across gateway replicas: PostgreSQL LISTEN/NOTIFY on one channel of the service's database.
// Each replica keeps one listening connection of its own (a pooled one cannot LISTEN) and publishes through the
// database's pool. A replica hears its own events back through the channel too, so every event takes one path.
// When the listening connection is lost, events sent meanwhile are gone: the replica reconnects and tells its
// subscribers to refetch rather than pretending nothing happened.
import pg from 'pg';
import { Fanout, logged, NO_REPLAY, type EventReads, type LiveBus, type LiveListener } from './bus.ts';
import type { EventLog } from './event-log.ts';
import { parseLiveEvent, type LiveEvent } from './events.ts';

export const LIVE_CHANNEL = 'prode_live';
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;
/** A dead TCP peer can go unnoticed for minutes: the listener asks the server something this often. */
const HEARTBEAT_MS = 15_000;
const HEARTBEAT_TIMEOUT_MS = 5000;
/** A NOTIFY that failed is tried once more after this long (a pool busy for a moment). */
const REPUBLISH_MS = 250;

type Log = (level: 'info' | 'warn', obj: object, msg: string) => void;

export class PgBus implements LiveBus {
  private readonly fanout: Fanout;
  private client: pg.Client | null = null;
  private closed = false;
  private lostAt: number | null = null;
  private retryMs = RETRY_MIN_MS;
  private readonly heartbeat: NodeJS.Timeout;
  /** Resolves once the first LISTEN is in place (it keeps trying until then, or until closed). */
  readonly ready: Promise<void>;

  constructor(
    private readonly url: string,
    /** Sends one NOTIFY through the database's pool. */
    private readonly notify: (channel: string, payload: string) => Promise<unknown>,
    private readonly log: Log,
    rankingIntervalMs = 0,
    private readonly events: EventLog | null = null,
  ) {
    this.fanout = new Fanout((obj, msg) => log('warn', obj, msg), rankingIntervalMs);
    this.ready = this.listen();
    this.heartbeat = setInterval(() => void this.check(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get stats() {
    return this.fanout.stats;
  }

  /** Whether the listening connection is up (readiness and metrics). */
  get listening(): boolean {
    return this.client !== null;
  }

  publish(event: LiveEvent): void {
    this.fanout.stats.published++;
    // Kept and sent in one transaction (src/live/event-log.ts); one not kept is sent here, without a cursor.
    void logged(this.events, event, (obj, msg) => this.log('warn', obj, msg)).then(({ event, kept }) => {
      if (!kept) this.send(event);
    });
  }

  /** NOTIFY with one retry: every replica's subscribers hear it (this one's through its own LISTEN). */
  private send(event: LiveEvent) {
    const payload = JSON.stringify(event);
    this.notify(LIVE_CHANNEL, payload)
      .catch(() => new Promise((r) => setTimeout(r, REPUBLISH_MS)).then(() => this.notify(LIVE_CHANNEL, payload)))
      .catch((err) => {
        this.fanout.stats.publishFailures++;
        this.log('warn', { err: firstLine(err), event }, 'live event not published');
      });
  }

  replay(topic: string, cursor: number) {
    return this.events ? this.events.after(topic, cursor) : Promise.resolve(NO_REPLAY);
  }

  subscribe(topic: string, listener: LiveListener) {
    return this.fanout.subscribe(topic, listener);
  }

  onMissed(listener: (reads: EventReads) => void) {
    return this.fanout.onMissed(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.fanout.close();
    this.events?.close();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    while (!this.closed) {
      const client = new pg.Client({
        connectionString: this.url,
        connectionTimeoutMillis: 5000,
        keepAlive: true,
        // Named, so an operator can tell it in pg_stat_activity.
        application_name: 'prode-live',
      });
      client.on('notification', (msg) => {
        if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
        const event = parseLiveEvent(msg.payload);
        if (event) this.fanout.dispatch(event);
        else this.log('warn', { payload: msg.payload.slice(0, 200) }, 'live feed: not an event, ignored');
      });
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client, null));
      try {
        await client.connect();
        await client.query(`LISTEN ${LIVE_CHANNEL}`);
      } catch (err) {
        client.removeAllListeners('notification');
        await client.end().catch(() => {});
        this.lostAt ??= Date.now();
        this.log('warn', { err: firstLine(err), retryInMs: this.retryMs }, 'live feed: cannot listen');
        await new Promise((r) => setTimeout(r, this.retryMs).unref());
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      this.retryMs = RETRY_MIN_MS;
      if (this.lostAt !== null) {
        this.log('info', { lostForMs: Date.now() - this.lostAt }, 'live feed back: subscribers told to refetch');
        this.lostAt = null;
        this.fanout.missed();
      }
      return;
    }
  }

  private lost(client: pg.Client, err: Error | null) {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.lostAt = Date.now();
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    this.log('warn', { err: err ? firstLine(err) : 'connection ended' }, 'live feed lost: reconnecting');
    void this.listen();
  }

  private checking = false;

  /** Asks the listening connection something; no response within HEARTBEAT_TIMEOUT_MS counts as lost. */
  private async check() {
    const client = this.client;
    if (!client || this.checking) return;
    this.checking = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer to the heartbeat')), HEARTBEAT_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      this.lost(client, err as Error);
    } finally {
      clearTimeout(timer);
      this.checking = false;
    }
  }
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/**
 * Publishes events from a process that serves no subscribers (the importer's CLI): NOTIFY through its database's
 * connection, heard by every replica that listens.
 */
export async function notifyLiveEvents(
  notify: (channel: string, payload: string) => Promise<unknown>,
  events: LiveEvent[],
): Promise<void> {
  for (const event of events) await notify(LIVE_CHANNEL, JSON.stringify(event));
}
