// Areas of one level against each other, pure: an area's points are the average of its ranked members' points,
// rounded to hundredths; areas level on those points share a position (1, 2, 2, 4) and are listed by name, then id.
// The database computes the averages (src/game/area-ranking.ts); this numbers them.

export interface AreaScore {
  areaId: number;
  name: string;
  /** The average of the members' points, rounded to hundredths. */
  points: number;
  /** Ranked members placed in the area. */
  members: number;
}

export interface RankedArea extends AreaScore {
  position: number;
}

export function compareAreas(a: AreaScore, b: AreaScore): number {
  return b.points - a.points || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.areaId - b.areaId;
}

/** The areas in ranking order with RANK() positions. */
export function rankAreas(areas: AreaScore[]): RankedArea[] {
  const sorted = [...areas].sort(compareAreas);
  const ranked: RankedArea[] = [];
  sorted.forEach((area, i) => {
    const position = i > 0 && sorted[i - 1].points === area.points ? ranked[i - 1].position : i + 1;
    ranked.push({ ...area, position });
  });
  return ranked;
}
