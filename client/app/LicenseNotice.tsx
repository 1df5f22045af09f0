import { Alert } from 'antd';
import type { LicenseInfo } from '../api/auth-types.ts';
import { readJson } from '../session/session-store.ts';
import { SESSION_KEYS } from '../session/session-keys.ts';
import { isReadOnlyFacility } from '../shared/facility-licence.ts';

const NOTICES: Partial<
  Record<LicenseInfo['state'], { type: 'info' | 'warning' | 'error'; text: string }>
> = {
  intimate: {
    type: 'info',
    text: 'The licence of this facility expires soon. Please contact your administrator to renew it.',
  },
  grace: {
    type: 'warning',
    text: 'The licence of this facility has expired and is in its grace period. Please contact your administrator.',
  },
  'grace-exceeded': {
    type: 'error',
    text: 'The licence of this facility has expired and its grace period has ended. Please contact your administrator.',
  },
};

/** Shown only for facilities whose licence needs attention (the session keeps only those). */
export function LicenseNotice({ facilityId }: { facilityId: number }) {
  const licenses = readJson<LicenseInfo[]>(SESSION_KEYS.licenseInfo) ?? [];
  const license = licenses.find((info) => info.facilityId === facilityId);
  const notice = license ? NOTICES[license.state] : undefined;
  if (!notice) return null;
  const text = isReadOnlyFacility(facilityId)
    ? `${notice.text} Until then the facility is read-only.`
    : notice.text;
  return (
    <Alert
      type={notice.type}
      showIcon
      title={text}
      role="alert"
      data-testid="license-notice"
      style={{ marginBottom: 16 }}
    />
  );
}
