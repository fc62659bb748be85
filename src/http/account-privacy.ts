// The public account operations respond alike whether or not an account exists (login, sign-up where verification
// is required, reset and verification links): how many SQL statements they ran would tell (a row found, a token
// issued). SQL_STATS therefore reports no count for a request that runs one of them: neither the x-sql-statements
// header nor the response's extensions.sqlStatements. The request log, which only operators read, keeps it.
const PUBLIC_ACCOUNT_FIELDS = new Set([
  'login',
  'register',
  'requestPasswordReset',
  'requestEmailVerification',
  'resetPassword',
  'verifyEmail',
  'acceptInvitation',
]);

/** True when a request with these root fields must not report its statement count. */
export const hidesStatementCount = (rootFields: readonly string[] | null | undefined): boolean =>
  rootFields?.some((field) => PUBLIC_ACCOUNT_FIELDS.has(field)) ?? false;
