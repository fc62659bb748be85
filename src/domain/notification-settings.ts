// A person's notification choices as they change them, and when a match is due in their prediction reminder.
// Pure: src/app/notifications.ts reads and writes the settings, src/notifications/triggers.ts sends the reminders.
import { NOTIFICATION_TYPES } from './company-settings.ts';
import { isReminderHours, REMINDER_HOURS, userNotificationSettings } from './defaults.ts';

export type UserNotificationSettings = ReturnType<typeof userNotificationSettings>;

/** What updateNotificationSettings takes: a field left out keeps its value; reminderHoursBefore null: the default. */
export interface NotificationSettingsChange {
  disabledTypes?: string[] | null;
  emailEnabled?: boolean | null;
  reminderHoursBefore?: number | null;
}

export type NotificationSettingsResult =
  { ok: true; value: UserNotificationSettings } | { ok: false; argument: string; message: string };

/** The settings after the change, or the first field that is wrong. */
export function changeNotificationSettings(
  current: UserNotificationSettings,
  change: NotificationSettingsChange,
): NotificationSettingsResult {
  const value = { ...current };
  if (change.disabledTypes != null) {
    const unknown = change.disabledTypes.find((t) => !(NOTIFICATION_TYPES as readonly string[]).includes(t));
    if (unknown !== undefined) {
      const message = `disabledTypes holds ${JSON.stringify(unknown)}: the types are ${NOTIFICATION_TYPES.join(', ')}`;
      return { ok: false, argument: 'disabledTypes', message };
    }
    value.disabledTypes = [...new Set(change.disabledTypes)];
  }
  if (change.emailEnabled != null) value.emailEnabled = change.emailEnabled;
  if (change.reminderHoursBefore !== undefined) {
    if (change.reminderHoursBefore !== null && !isReminderHours(change.reminderHoursBefore)) {
      const message =
        `reminderHoursBefore must be a whole number of hours from ${REMINDER_HOURS.min} to ${REMINDER_HOURS.max}` +
        ' (or null for the company default)';
      return { ok: false, argument: 'reminderHoursBefore', message };
    }
    value.reminderHoursBefore = change.reminderHoursBefore;
  }
  return { ok: true, value };
}

/** The hours before closing that reminders reach the person: their own choice, else the company's default. */
export const reminderHours = (user: { reminderHoursBefore: number | null }, company: { reminderHoursBefore: number }) =>
  user.reminderHoursBefore ?? company.reminderHoursBefore;

/** A match is due in the reminder while its predictions are still open and close within `hours` from now. */
export const dueForReminder = (closesAt: Date, now: Date, hours: number) =>
  closesAt.getTime() > now.getTime() && closesAt.getTime() <= now.getTime() + hours * 3600e3;
