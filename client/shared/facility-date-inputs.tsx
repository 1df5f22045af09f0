import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import {
  dateToWallClock,
  wallClockToDate,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';

/*
 * The pickers' values are kept by their text (useMemo): a new dayjs object for the same moment,
 * on any re-render such as a live update's refetch, set the text being typed back to the value.
 *
 * Dates typed as the facility shows them (spec §2 "Display settings"): its date and time
 * formats, on its own wall clock. A time's form value is the UTC instant; the picker shows it
 * as the facility's wall clock (text read by dayjs as a zone-less time) and turns what is
 * picked back into an instant with the facility's zone, so a tablet set to another zone still
 * records the plant's time, and a default set before the settings load stays right.
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

/** A moment (ISO instant as the form value) on the facility's wall clock, in its formats. */
export function FacilityDateTimeInput(props: {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  'aria-label'?: string;
}) {
  const { settings } = useDateFormat();
  const zone = settings.timezone;
  const value = useMemo(
    () => (props.value ? dayjs(dateToWallClock(props.value, zone)) : null),
    [props.value, zone],
  );
  return (
    <DatePicker
      id={props.id}
      aria-label={props['aria-label']}
      size="large"
      showTime
      style={{ width: 260 }}
      format={pickerFormats(settings).dateTime}
      value={value}
      onChange={(value: Dayjs | null) =>
        props.onChange?.(
          value ? wallClockToDate(value.format(WALL_CLOCK), zone).toISOString() : null,
        )
      }
    />
  );
}

/**
 * A calendar day (form value 'YYYY-MM-DD', as the server takes it) typed and shown in the
 * facility's date format; a day has no zone, so none is applied.
 */
export function FacilityDateInput(props: {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  'aria-label'?: string;
  size?: 'large';
  width?: number;
}) {
  const { settings } = useDateFormat();
  const value = useMemo(() => (props.value ? dayjs(props.value) : null), [props.value]);
  return (
    <DatePicker
      id={props.id}
      aria-label={props['aria-label']}
      size={props.size}
      style={{ width: props.width ?? 160 }}
      format={pickerFormats(settings).date}
      value={value}
      onChange={(day: Dayjs | null) => props.onChange?.(day ? day.format(DAY) : null)}
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
