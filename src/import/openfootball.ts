// openfootball's worldcup.json format, parsed and validated. Pure: no I/O.
//   { name, matches: [{ round, num?, date: "2026-06-11", time?: "13:00 UTC-6", team1, team2,
//     score?: { ft?: [a,b], ht?, et?: [a,b], p?: [a,b] }, group?, ground? }] }

export interface ParsedMatch {
  /** Stable within the file: "m<num>" for numbered matches, else date and teams. */
  key: string;
  /** The file numbers it (`num`): its key does not hold its date. */
  numbered: boolean;
  roundName: string;
  kickoff: Date;
  team1: string;
  team2: string;
  venue: string;
  group: string | null;
  /** The final score: after extra time when it was played. */
  homeTeamGoals: number | null;
  awayTeamGoals: number | null;
  /** After 90 minutes (`ft`), and after extra time (`et`, null without extra time). */
  homeTeamFullTimeGoals: number | null;
  awayTeamFullTimeGoals: number | null;
  homeTeamExtraTimeGoals: number | null;
  awayTeamExtraTimeGoals: number | null;
  homeTeamPenaltyGoals: number | null;
  awayTeamPenaltyGoals: number | null;
  penaltiesWinner: 'home' | 'away' | null;
  extraTime: boolean;
  status: 'FINISHED' | 'SCHEDULED';
}

export interface ParsedRound {
  name: string;
  /** 1 for the round that starts first: by the rounds' earliest kickoffs, the file's order between equal ones. */
  position: number;
  /** Earliest kickoff of the round. */
  date: Date;
  /** Knockout rounds (no group) can go to extra time and penalties. */
  hasPenalties: boolean;
}

export interface ParsedTournament {
  name: string;
  rounds: ParsedRound[];
  teams: string[];
  matches: ParsedMatch[];
}

export class FixtureFormatError extends Error {}

/** "13:00 UTC-6", "20:30 UTC+5:30", "18:00" (UTC) or missing (midnight UTC) on a "YYYY-MM-DD" date. */
export function parseKickoff(date: string, time: string | undefined, where = 'match'): Date {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!d) throw new FixtureFormatError(`${where}: date "${date}" is not YYYY-MM-DD`);
  let hours = 0;
  let minutes = 0;
  let offsetMinutes = 0;
  if (time !== undefined) {
    const t = /^(\d{1,2}):(\d{2})(?:\s*UTC([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(time.trim());
    if (!t) throw new FixtureFormatError(`${where}: time "${time}" is not like "13:00 UTC-6"`);
    hours = Number(t[1]);
    minutes = Number(t[2]);
    if (hours > 23 || minutes > 59) throw new FixtureFormatError(`${where}: time "${time}" is out of range`);
    if (t[3]) offsetMinutes = (t[3] === '-' ? -1 : 1) * (Number(t[4]) * 60 + Number(t[5] ?? 0));
  }
  const utc = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), hours, minutes) - offsetMinutes * 60_000;
  const result = new Date(utc);
  if (Number.isNaN(result.getTime()) || result.getUTCDate() === 0)
    throw new FixtureFormatError(`${where}: date "${date}" is invalid`);
  return result;
}

function pair(value: unknown, where: string): [number, number] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n) && n >= 0 && n < 100)) {
    throw new FixtureFormatError(`${where} must be a pair of goal counts like [2, 1]`);
  }
  return [value[0], value[1]];
}

function text(value: unknown, where: string, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw new FixtureFormatError(`${where} is required`);
    return null;
  }
  if (typeof value !== 'string' || (required && value.trim() === ''))
    throw new FixtureFormatError(`${where} must be a non-empty string`);
  return value.trim();
}

export function parseOpenfootball(json: unknown): ParsedTournament {
  if (!json || typeof json !== 'object') throw new FixtureFormatError('the file must hold a JSON object');
  const root = json as { name?: unknown; matches?: unknown };
  const name = text(root.name, 'name', true)!;
  if (!Array.isArray(root.matches)) throw new FixtureFormatError('matches must be an array');

  const matches: ParsedMatch[] = [];
  const keys = new Set<string>();
  for (const [i, raw] of root.matches.entries()) {
    const where = `matches[${i}]`;
    if (!raw || typeof raw !== 'object') throw new FixtureFormatError(`${where} must be an object`);
    const m = raw as Record<string, unknown>;
    const roundName = text(m.round, `${where}.round`, true)!;
    const date = text(m.date, `${where}.date`, true)!;
    const time = text(m.time, `${where}.time`, false) ?? undefined;
    const team1 = text(m.team1, `${where}.team1`, true)!;
    const team2 = text(m.team2, `${where}.team2`, true)!;
    if (m.num !== undefined && !Number.isInteger(m.num))
      throw new FixtureFormatError(`${where}.num must be an integer`);
    const score = (m.score ?? {}) as Record<string, unknown>;
    if (typeof score !== 'object') throw new FixtureFormatError(`${where}.score must be an object`);
    const ft = pair(score.ft, `${where}.score.ft`);
    const et = pair(score.et, `${where}.score.et`);
    const p = pair(score.p, `${where}.score.p`);
    if ((et || p) && !ft) throw new FixtureFormatError(`${where}.score has et or p without ft`);
    if (p && p[0] === p[1]) throw new FixtureFormatError(`${where}.score.p cannot be a draw`);
    const final = et ?? ft;
    if (p && final && final[0] !== final[1])
      throw new FixtureFormatError(`${where}.score.p given but the match was not drawn`);
    const key = m.num !== undefined ? `m${m.num}` : `${date}:${team1}:${team2}`.toLowerCase().replace(/\s+/g, '-');
    if (keys.has(key)) throw new FixtureFormatError(`${where}: duplicate match ${key}`);
    keys.add(key);
    matches.push({
      key,
      numbered: m.num !== undefined,
      roundName,
      team1,
      team2,
      kickoff: parseKickoff(date, time, where),
      venue: text(m.ground, `${where}.ground`, false) ?? '',
      group: text(m.group, `${where}.group`, false),
      homeTeamGoals: final?.[0] ?? null,
      awayTeamGoals: final?.[1] ?? null,
      homeTeamFullTimeGoals: ft?.[0] ?? null,
      awayTeamFullTimeGoals: ft?.[1] ?? null,
      homeTeamExtraTimeGoals: et?.[0] ?? null,
      awayTeamExtraTimeGoals: et?.[1] ?? null,
      homeTeamPenaltyGoals: p?.[0] ?? null,
      awayTeamPenaltyGoals: p?.[1] ?? null,
      penaltiesWinner: p ? (p[0] > p[1] ? 'home' : 'away') : null,
      extraTime: et !== null,
      status: ft ? 'FINISHED' : 'SCHEDULED',
    });
  }

  const rounds = new Map<string, ParsedRound>();
  for (const m of matches) {
    const r = rounds.get(m.roundName);
    if (!r)
      rounds.set(m.roundName, {
        name: m.roundName,
        position: rounds.size + 1,
        date: m.kickoff,
        hasPenalties: m.group === null,
      });
    else {
      if (m.kickoff < r.date) r.date = m.kickoff;
      if (m.group === null) r.hasPenalties = true;
    }
  }
  // Positions follow the rounds' dates (their earliest kickoff), not the order the file lists them in; rounds
  // starting at the same time keep the file's order.
  const byDate = [...rounds.values()].sort((a, b) => a.date.getTime() - b.date.getTime() || a.position - b.position);
  byDate.forEach((r, i) => (r.position = i + 1));
  const teams = [...new Set(matches.flatMap((m) => [m.team1, m.team2]))].sort();
  return { name, rounds: byDate, teams, matches };
}
