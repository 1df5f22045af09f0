import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback } from 'react';
import {
  dateToWallClock,
  wallClockToDate,
  type DateTimeSettings,
} from '../../../core/datetime/format-date-time.ts';
import { useDateFormat } from '../../app/use-date-format.ts';

/*
 * Dates typed as the facility shows them (spec §2 "Display settings"): its date and time
 * formats, on its own wall clock. The pickers hold the wall clock as text ('YYYY-MM-DDTHH:mm:ss',
 * read by dayjs as a zone-less time); only the save turns it into a UTC instant, with the
 * facility's zone, so a tablet set to another zone still records the plant's time.
 */

const WALL_CLOCK = 'YYYY-MM-DDTHH:mm:ss';
const DAY = 'YYYY-MM-DD';

/** The facility's formats as dayjs patterns: a 12-hour time carries AM/PM, as it is shown. */
export function pickerFormats(settings: DateTimeSettings): { date: string; dateTime: string } {
  const time = settings.timeFormat.startsWith('hh')
    ? `${settings.timeFormat} A`
    : settings.timeFormat;
  return { date: settings.dateFormat, dateTime: `${settings.dateFormat} ${time}` };
}

/** The facility's clock: now as wall-clock text, and wall-clock text as the instant to save. */
export function useFacilityClock() {
  const { settings } = useDateFormat();
  const zone = settings.timezone;
  const now = useCallback(() => dateToWallClock(new Date(), zone), [zone]);
  const toInstant = useCallback(
    (text: string | null | undefined) => (text ? wallClockToDate(text, zone).toISOString() : null),
    [zone],
  );
  const fromInstant = useCallback(
    (iso: string | null | undefined) => (iso ? dateToWallClock(iso, zone) : null),
    [zone],
  );
  return { zone, now, toInstant, fromInstant };
}

/** A date and time on the facility's wall clock, in its formats; a form value as wall-clock text. */
export function FacilityDateTimeInput(props: {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  'aria-label'?: string;
}) {
  const { settings } = useDateFormat();
  return (
    <DatePicker
      id={props.id}
      aria-label={props['aria-label']}
      size="large"
      showTime
      style={{ width: 260 }}
      format={pickerFormats(settings).dateTime}
      value={props.value ? dayjs(props.value) : null}
      onChange={(value: Dayjs | null) => props.onChange?.(value ? value.format(WALL_CLOCK) : null)}
    />
  );
}

/** From and to days ('YYYY-MM-DD', either open) in the facility's date format. */
export function FacilityDateRange(props: {
  from: string | null;
  to: string | null;
  onChange: (range: { from: string | null; to: string | null }) => void;
}) {
  const { settings } = useDateFormat();
  return (
    <DatePicker.RangePicker
      aria-label="Date range"
      allowEmpty={[true, true]}
      format={pickerFormats(settings).date}
      placeholder={['From', 'To']}
      value={[props.from ? dayjs(props.from) : null, props.to ? dayjs(props.to) : null]}
      onChange={(range) =>
        props.onChange({
          from: range?.[0] ? range[0].format(DAY) : null,
          to: range?.[1] ? range[1].format(DAY) : null,
        })
      }
    />
  );
}
