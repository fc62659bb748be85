// Roles rank player < admin < reseller < manager.
export const ROLE_RANK = { player: 0, admin: 1, reseller: 2, manager: 3 } as const;
export type RoleName = keyof typeof ROLE_RANK;

export const isRole = (value: unknown): value is RoleName => typeof value === 'string' && value in ROLE_RANK;
export const roleAtLeast = (role: RoleName, min: RoleName) => ROLE_RANK[role] >= ROLE_RANK[min];
