// The demo accounts the suites log in as (prisma/seed/demo-seed.ts), each with the tenant header that reaches its
// company: Demo Corp and Channel Partners have app paths; Globex has only a custom domain, and its users' e-mails
// are unique, so they log in without a header.
import type { DemoUserEmail } from '../../prisma/seed/demo-seed.ts';

export const DEMO_USERS = {
  player: { email: 'player1@demo.test', appPath: 'demo' },
  player2: { email: 'player2@demo.test', appPath: 'demo' },
  admin: { email: 'admin@demo.test', appPath: 'demo' },
  reseller: { email: 'reseller@partners.test', appPath: 'partners' },
  manager: { email: 'manager@partners.test', appPath: 'partners' },
  globexPlayer: { email: 'player1@globex.test', appPath: undefined },
  globexAdmin: { email: 'admin@globex.test', appPath: undefined },
} as const satisfies Record<string, { email: DemoUserEmail; appPath: string | undefined }>;

export type DemoUser = keyof typeof DEMO_USERS;

/** What the demo company asks of everyone who joins it: its employeeNumber field is required. */
export const DEMO_EXTRA_FIELDS = [{ name: 'employeeNumber', value: 'E9000' }];
