import { Alert, Button, Form, Input, InputNumber, Select, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { DATE_FORMATS, formatDateTime, TIME_FORMATS } from '#core/datetime/format-date-time.ts';
import type { TDateTimeSettings } from '#core/schemas/settings.schemas.ts';
import {
  formatQuantity,
  MAX_SIGNIFICANT_DIGITS,
  MIN_SIGNIFICANT_DIGITS,
} from '#core/units/format-number.ts';
import { useDateTimeSettings } from '#client/shared/use-date-format.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { showSaved } from './save-feedback.ts';
import { useUpdateDateTimeSettings } from '#client/shared/settings/settings-api.ts';

interface DateTimeForm {
  dateTimeSettings: TDateTimeSettings;
  reason: string;
}

function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export function DateTimeSettingsForm({ canEdit }: { canEdit: boolean }) {
  const [form] = Form.useForm<DateTimeForm>();
  const settings = useDateTimeSettings();
  const update = useUpdateDateTimeSettings();
  const zoneOptions = useMemo(() => timeZones().map((zone) => ({ value: zone, label: zone })), []);
  const watched = Form.useWatch('dateTimeSettings', form);

  if (settings.isPending) return <Spin />;
  if (settings.isError) return <Alert type="error" title={settings.error.message} />;
  const { version } = settings.data;

  async function onFinish(values: DateTimeForm): Promise<void> {
    try {
      await update.mutateAsync({
        dateTimeSettings: {
          ...values.dateTimeSettings,
          country: values.dateTimeSettings.country || null,
        },
        version,
        reason: values.reason,
      });
      form.setFieldValue('reason', '');
      showSaved('Date and time settings');
    } catch (error) {
      showSaveError(error, form);
    }
  }

  const example = watched?.timezone
    ? formatDateTime(new Date(), {
        timezone: watched.timezone,
        dateFormat: watched.dateFormat,
        timeFormat: watched.timeFormat,
      })
    : '';

  return (
    <Form<DateTimeForm>
      form={form}
      layout="vertical"
      initialValues={{ dateTimeSettings: settings.data }}
      onFinish={onFinish}
      disabled={!canEdit}
      aria-label="Date and time settings"
      style={{ maxWidth: 560 }}
    >
      <Form.Item
        label="Time zone"
        name={['dateTimeSettings', 'timezone']}
        rules={[{ required: true, message: 'Choose a time zone' }]}
      >
        <Select showSearch options={zoneOptions} aria-label="Time zone" />
      </Form.Item>
      <Form.Item label="Date format" name={['dateTimeSettings', 'dateFormat']}>
        <Select
          options={DATE_FORMATS.map((f) => ({ value: f, label: f }))}
          aria-label="Date format"
        />
      </Form.Item>
      <Form.Item label="Time format" name={['dateTimeSettings', 'timeFormat']}>
        <Select
          options={TIME_FORMATS.map((f) => ({ value: f, label: f }))}
          aria-label="Time format"
        />
      </Form.Item>
      <Form.Item label="Country" name={['dateTimeSettings', 'country']}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item
        label="Significant digits"
        name={['dateTimeSettings', 'significantDigits']}
        extra="How many significant digits numbers show on screens, PDFs and workbooks"
        rules={[{ required: true, message: 'Choose how many significant digits' }]}
      >
        <InputNumber
          min={MIN_SIGNIFICANT_DIGITS}
          max={MAX_SIGNIFICANT_DIGITS}
          precision={0}
          aria-label="Significant digits"
        />
      </Form.Item>
      {example ? (
        <Typography.Paragraph>
          Now: <Typography.Text strong>{example}</Typography.Text>
          {watched?.significantDigits ? (
            <>
              {' '}
              · a limit:{' '}
              <Typography.Text strong>
                {formatQuantity(0.000305701876, 'mg/swab', watched.significantDigits)}
              </Typography.Text>
            </>
          ) : null}
        </Typography.Paragraph>
      ) : null}
      {canEdit ? (
        <>
          <ReasonField label="Reason for change" rows={1} />
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save date and time settings
          </Button>
        </>
      ) : null}
    </Form>
  );
}
