// The server a hostile-input file attacks, started once per file (vitest gives each file its own modules, so each
// file has its own target), and the tokens its requests name: real ones and forged ones (credentials.ts).
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/app.ts';
import { forgeInvitationLink } from '../../helpers/tokens.ts';
import { mintJwts } from './credentials.ts';

export const target = {
  s: undefined as unknown as TestServer,
  /** Tokens by name (JWT_NAMES): requests carry the name and the token is looked up at send time. */
  jwts: {} as Record<string, string>,
  /** A valid invitation link of Demo Corp, for `<invitation-jwt>` in generated requests. */
  invitationJwt: '',
};

export function useHostileServer(): void {
  beforeAll(async () => {
    target.s = await startTestServer();
    target.invitationJwt = await forgeInvitationLink(target.s.demo.invitations['new.hire1@demo.test']);
    target.jwts = await mintJwts(target.s, target.invitationJwt);
  });
  afterAll(() => target.s?.close());
}
