// Roles rank player < admin < reseller < manager.
export const ROLE_RANK = { player: 0, admin: 1, reseller: 2, manager: 3 } as const;
export type RoleName = keyof typeof ROLE_RANK;

export const isRole = (value: unknown): value is RoleName => typeof value === 'string' && value in ROLE_RANK;
export const roleAtLeast = (role: RoleName, min: RoleName) => ROLE_RANK[role] >= ROLE_RANK[min];

/** A reseller's list of managed companies is for managers, and for the reseller's own users. */
export function mayListManagedCompanies(
  viewer: { role: string; companyId: number } | null,
  resellerCompanyId: number,
): boolean {
  if (!viewer) return false;
  return viewer.role === 'manager' || (viewer.role === 'reseller' && viewer.companyId === resellerCompanyId);
}
