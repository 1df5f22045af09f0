import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  DEFAULT_DATE_TIME_SETTINGS,
  formatDate,
  formatDateTime,
  formatDay,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import type { TDateTimeSettingsRead } from '#core/schemas/settings.schemas.ts';
import { apiRequest } from '../api/http-client.ts';
import { useSession } from '../session/use-session.ts';

/** Settings screens invalidate this key when they change the facility's date and time settings. */
export const dateTimeSettingsKey = (facilityId: number | null) =>
  ['facilities', facilityId, 'date-time-settings'] as const;

export function useDateTimeSettings() {
  const { planId, currentFacilityId } = useSession();
  return useQuery({
    queryKey: dateTimeSettingsKey(currentFacilityId),
    queryFn: ({ signal }) =>
      apiRequest<{ dateTimeSettings: TDateTimeSettingsRead }>(
        `/plans/${planId}/facilities/${currentFacilityId}/date-time-settings`,
        { action: 'Loading date and time settings', signal },
      ),
    enabled: planId !== null && currentFacilityId !== null,
    select: (response) => response.dateTimeSettings,
    staleTime: 5 * 60_000,
  });
}

export interface DateFormatter {
  settings: DateTimeSettings;
  /** '22 Nov, 2026 14:05' in the facility's zone and formats. */
  formatDateTime: (value: Date | string | number | null | undefined) => string;
  formatDate: (value: Date | string | number | null | undefined) => string;
  /** A calendar day ('YYYY-MM-DD': a due date, a period's end) as the facility writes dates. */
  formatDay: (day: string | null | undefined) => string;
}

/**
 * Dates as the current facility shows them (spec §2 "Display settings"). Until the settings
 * load, the defaults of spec §9 apply. Every screen that shows a date uses this.
 */
export function useDateFormat(): DateFormatter {
  const { data } = useDateTimeSettings();
  const settings: DateTimeSettings = data ?? DEFAULT_DATE_TIME_SETTINGS;
  const { timezone, dateFormat, timeFormat } = settings;
  const dateTime = useCallback(
    (value: Date | string | number | null | undefined) =>
      value === null || value === undefined
        ? ''
        : formatDateTime(value, { timezone, dateFormat, timeFormat }),
    [timezone, dateFormat, timeFormat],
  );
  const date = useCallback(
    (value: Date | string | number | null | undefined) =>
      value === null || value === undefined
        ? ''
        : formatDate(value, { timezone, dateFormat, timeFormat }),
    [timezone, dateFormat, timeFormat],
  );
  const day = useCallback(
    (value: string | null | undefined) =>
      value ? formatDay(value, { timezone, dateFormat, timeFormat }) : '',
    [timezone, dateFormat, timeFormat],
  );
  return {
    settings: { timezone, dateFormat, timeFormat },
    formatDateTime: dateTime,
    formatDate: date,
    formatDay: day,
  };
}
