// What the live feed carries between gateway replicas: ids, never rows. A subscriber's replica loads what its
// subscriber may see (src/app/subscriptions.ts), so an event needs no tenant filtering of its own and stays far below
// PostgreSQL's 8000-byte NOTIFY limit.

export type LiveEvent = EventBody & {
  /** Its place in the kept log (src/live/event-log.ts): what a subscriber resumes after. Absent when not kept. */
  cursor?: number;
};

type EventBody =
  /** A match's score, status or kickoff changed. */
  | { kind: 'match'; tournamentId: number; matchId: number }
  /** Standings of the tournament moved: in every company that plays it, or in `companyId` only (its rules). */
  | { kind: 'ranking'; tournamentId: number; companyId?: number }
  /** A notification of `userId` was delivered. */
  | { kind: 'notification'; userId: number; notificationId: number }
  /** Every session of `userId` was revoked (src/app/sessions.ts): their subscriptions read their caller again. */
  | { kind: 'sessions'; userId: number };

/**
 * The event without its cursor: the same change, wherever it was logged (a queue's duplicates are told by it). Made
 * once per event object: every subscriber of this process is handed the same one.
 */
export function changeOf(event: LiveEvent): string {
  let change = changes.get(event);
  if (change === undefined) {
    const { cursor: _cursor, ...rest } = event;
    changes.set(event, (change = JSON.stringify(rest)));
  }
  return change;
}

const changes = new WeakMap<LiveEvent, string>();

/** Where an event is heard: subscribers listen to one topic each. */
export function topicOf(event: LiveEvent): string {
  switch (event.kind) {
    case 'match':
      return matchTopic(event.tournamentId);
    case 'ranking':
      return rankingTopic(event.tournamentId);
    case 'notification':
      return notificationTopic(event.userId);
    case 'sessions':
      return sessionsTopic(event.userId);
  }
}

export const matchTopic = (tournamentId: number) => `match:${tournamentId}`;
export const rankingTopic = (tournamentId: number) => `ranking:${tournamentId}`;
export const notificationTopic = (userId: number) => `notification:${userId}`;
export const sessionsTopic = (userId: number) => `sessions:${userId}`;

const id = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/**
 * An event read back from the wire, or null when it is not one: NOTIFY on the channel is open to any role that
 * can connect, so what arrives is checked like input.
 */
export function parseLiveEvent(text: string): LiveEvent | null {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const event = parseBody(v);
  if (event && id(v.cursor)) event.cursor = v.cursor;
  return event;
}

function parseBody(v: Record<string, unknown>): LiveEvent | null {
  if (v.kind === 'match' && id(v.tournamentId) && id(v.matchId))
    return { kind: 'match', tournamentId: v.tournamentId, matchId: v.matchId };
  if (v.kind === 'ranking' && id(v.tournamentId) && (v.companyId === undefined || id(v.companyId)))
    return v.companyId === undefined
      ? { kind: 'ranking', tournamentId: v.tournamentId }
      : { kind: 'ranking', tournamentId: v.tournamentId, companyId: v.companyId };
  if (v.kind === 'notification' && id(v.userId) && id(v.notificationId))
    return { kind: 'notification', userId: v.userId, notificationId: v.notificationId };
  if (v.kind === 'sessions' && id(v.userId)) return { kind: 'sessions', userId: v.userId };
  return null;
}
