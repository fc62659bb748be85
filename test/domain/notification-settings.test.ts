// The notification choices a person may make, and when a match is due in their prediction reminder.
import { describe, expect, it } from 'vitest';
import { userNotificationSettings } from '../../src/domain/defaults.ts';
import { changeNotificationSettings, dueForReminder, reminderHours } from '../../src/domain/notification-settings.ts';

const HOUR = 3600e3;
const now = new Date(Date.UTC(2030, 0, 1, 12));
const at = (hours: number) => new Date(now.getTime() + hours * HOUR);

describe('dueForReminder', () => {
  it('takes a match closing after now and at most the hours ahead, never one already closed', () => {
    expect(dueForReminder(now, now, 24)).toBe(false); // closes this instant: closed
    expect(dueForReminder(at(-1), now, 24)).toBe(false);
    expect(dueForReminder(at(0.01), now, 24)).toBe(true);
    expect(dueForReminder(at(24), now, 24)).toBe(true);
    expect(dueForReminder(at(24.01), now, 24)).toBe(false);
  });

  it("uses the person's hours, else the company's", () => {
    expect(reminderHours({ reminderHoursBefore: 3 }, { reminderHoursBefore: 48 })).toBe(3);
    expect(reminderHours({ reminderHoursBefore: null }, { reminderHoursBefore: 48 })).toBe(48);
  });
});

describe('changeNotificationSettings', () => {
  const current = userNotificationSettings({});

  it('reads a stored value out of bounds as none, and keeps what a change leaves out', () => {
    expect(current).toEqual({ disabledTypes: [], emailEnabled: true, reminderHoursBefore: null });
    expect(userNotificationSettings({ reminderHoursBefore: 1000 }).reminderHoursBefore).toBeNull();
    const changed = changeNotificationSettings(current, { disabledTypes: ['rankingsUpdated', 'rankingsUpdated'] });
    expect(changed).toEqual({ ok: true, value: { ...current, disabledTypes: ['rankingsUpdated'] } });
  });

  it.each([
    [{ reminderHoursBefore: 0 }, 'reminderHoursBefore'],
    [{ reminderHoursBefore: 169 }, 'reminderHoursBefore'],
    [{ reminderHoursBefore: 2.5 }, 'reminderHoursBefore'],
    [{ disabledTypes: ['pendingMatchesPrediction'] }, 'disabledTypes'],
  ])('refuses %j, naming %s', (change, argument) => {
    expect(changeNotificationSettings(current, change)).toMatchObject({ ok: false, argument });
  });
});
