// Notification choices over real HTTP: a person changes their own with updateNotificationSettings, an admin the
// company's default reminderHoursBefore with updateCompany; both read back where notificationSettings is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

const UPDATE_MINE = `mutation($i: NotificationSettingsInput!) {
  updateNotificationSettings(input: $i) { disabledTypes emailEnabled reminderHoursBefore }
}`;
const READ = `{ me { notificationSettings { disabledTypes emailEnabled reminderHoursBefore }
  company { notificationSettings { forbiddenTypes reminderHoursBefore } } } }`;
const UPDATE_COMPANY = `mutation($id: Int!, $i: UpdateCompanyInput!) {
  updateCompany(companyId: $id, input: $i) { notificationSettings { forbiddenTypes reminderHoursBefore } }
}`;

let s: TestServer;
let tokens: Record<'admin' | 'player', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player']);
});
afterAll(() => s?.close());

describe('notification settings', () => {
  it('a person changes their own choices; what is left out keeps its value', async () => {
    const before = await s.gql(READ, {}, bearer(tokens.player));
    expect(before.data.me.notificationSettings).toEqual({
      disabledTypes: [],
      emailEnabled: true,
      reminderHoursBefore: null,
    });
    expect(before.data.me.company.notificationSettings).toEqual({ forbiddenTypes: [], reminderHoursBefore: 24 });
    const r = await s.gql(
      UPDATE_MINE,
      { i: { disabledTypes: ['rankingsUpdated'], reminderHoursBefore: 3 } },
      bearer(tokens.player),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.updateNotificationSettings).toEqual({
      disabledTypes: ['rankingsUpdated'],
      emailEnabled: true,
      reminderHoursBefore: 3,
    });
    await s.gql(UPDATE_MINE, { i: { emailEnabled: false } }, bearer(tokens.player));
    expect((await s.gql(READ, {}, bearer(tokens.player))).data.me.notificationSettings).toEqual({
      disabledTypes: ['rankingsUpdated'],
      emailEnabled: false,
      reminderHoursBefore: 3,
    });
  });

  it('refuses hours outside 1 to 168 and an unknown type, changing nothing', async () => {
    const wrong = await s.gql(UPDATE_MINE, { i: { reminderHoursBefore: 0 } }, bearer(tokens.player));
    expect(wrong.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argumentName: 'reminderHoursBefore',
    });
    expect(wrong.errors?.[0].message).toMatch(/from 1 to 168/);
    const unknown = await s.gql(UPDATE_MINE, { i: { disabledTypes: ['spam'] } }, bearer(tokens.player));
    expect(unknown.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    const read = await s.gql(READ, {}, bearer(tokens.player));
    expect(read.data.me.notificationSettings.reminderHoursBefore).toBe(3);
  });

  it("an admin sets the company's default; forbiddenTypes left out keeps its value", async () => {
    const id = s.demo.companies.DEMO;
    const forbid = await s.gql(
      UPDATE_COMPANY,
      { id, i: { notificationSettings: { forbiddenTypes: ['rankingsUpdated'] } } },
      bearer(tokens.admin),
    );
    expect(forbid.errors).toBeUndefined();
    const r = await s.gql(
      UPDATE_COMPANY,
      { id, i: { notificationSettings: { reminderHoursBefore: 12 } } },
      bearer(tokens.admin),
    );
    expect(r.data.updateCompany.notificationSettings).toEqual({
      forbiddenTypes: ['rankingsUpdated'],
      reminderHoursBefore: 12,
    });
    const tooMany = await s.gql(
      UPDATE_COMPANY,
      { id, i: { notificationSettings: { reminderHoursBefore: 169 } } },
      bearer(tokens.admin),
    );
    expect(tooMany.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argumentName: 'notificationSettings',
    });
    const byPlayer = await s.gql(
      UPDATE_COMPANY,
      { id, i: { notificationSettings: { reminderHoursBefore: 1 } } },
      bearer(tokens.player),
    );
    expect(byPlayer.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await s.gql(READ, {}, bearer(tokens.player))).data.me.company.notificationSettings).toEqual({
      forbiddenTypes: ['rankingsUpdated'],
      reminderHoursBefore: 12,
    });
  });
});
