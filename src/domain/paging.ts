import { badInput } from './errors.ts';

export const DEFAULT_TAKE = 20;
export const MAX_TAKE = 100;

/** skip >= 0, 1 <= take <= 100 (docs/design.md, "Paging"): bad values are refused, never clamped. */
export function paging(skip: number | null | undefined, take: number | null | undefined) {
  const s = skip ?? 0;
  const t = take ?? DEFAULT_TAKE;
  if (!Number.isSafeInteger(s) || s < 0) throw badInput('skip must be an integer >= 0', 'skip');
  if (!Number.isSafeInteger(t) || t < 1 || t > MAX_TAKE)
    throw badInput(`take must be an integer from 1 to ${MAX_TAKE}`, 'take');
  return { skip: s, take: t };
}
