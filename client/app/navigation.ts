import { canReadAuditLog } from '../features/audit-log/audit-log-access.ts';
import { canSeeLimitReports, canSeeLimits } from '../shared/limits/limits-access.ts';
import { canSeeMacFormulas, canSeeMasterData } from '../features/master-data/master-data-access.ts';
import { canSeePolicies } from '../features/policies/policies-access.ts';
import { canSeeChangeAssessments } from '../features/change-assessments/change-assessments-access.ts';
import { canSign } from '../features/records/records-access.ts';
import { canSeeCleaningAssessments } from '../features/cleaning-assessments/cleaning-assessments-access.ts';
import { canSeeReports } from '../features/reports/reports-access.ts';
import { canSeeCustomReports } from '../features/custom-reports/custom-reports-access.ts';
import { canSeeVerification } from '../features/verification/verification-access.ts';
import { canSeeRoomGrades } from '../features/room-grades/room-grades-access.ts';
import { canSeeWebhooks } from '../features/webhooks/webhooks-access.ts';
import { canSeeEquipmentStatus } from '../features/equipment-status/equipment-status-access.ts';
import { canReadOutbox } from '../features/outbox/outbox-access.ts';
import { canReadFeedback } from '../features/feedback/feedback-access.ts';
import { canSeeSettings } from '../features/settings/settings-access.ts';
import { canUseArea } from '../features/roles/admin-areas.ts';
import type { MyPermissions } from '../shared/permission-rules.ts';
import { canOpenScreen, type FacilityKind } from '#core/facilities/facility-features.ts';

/**
 * The areas of the main application that exist. Only working areas are listed: an entry is
 * added here when its feature folder lands, never before.
 */
export const NAVIGATION = [
  { path: '/', label: 'Home' },
  { path: '/master-data', label: 'Master data', isVisible: canSeeMasterData },
  { path: '/limits/mac-matrix', label: 'MAC matrix', isVisible: canSeeLimits },
  { path: '/limits/reports', label: 'Limits', isVisible: canSeeLimitReports },
  { path: '/policies', label: 'Cleaning limit policies', isVisible: canSeePolicies },
  { path: '/policies/mac-formulas', label: 'MAC formulas', isVisible: canSeeMacFormulas },
  { path: '/change-control', label: 'Change control', isVisible: canSeeChangeAssessments },
  { path: '/room-grades', label: 'Room grades', isVisible: canSeeRoomGrades },
  { path: '/equipment-status', label: 'Equipment status', isVisible: canSeeEquipmentStatus },
  {
    path: '/cleaning-assessments',
    label: 'Cleaning assessments',
    isVisible: canSeeCleaningAssessments,
  },
  { path: '/protocols', label: 'Protocols', isVisible: canSeeVerification },
  { path: '/studies', label: 'Studies', isVisible: canSeeVerification },
  { path: '/verification', label: 'Ongoing verification', isVisible: canSeeVerification },
  { path: '/reports', label: 'Reports', isVisible: canSeeReports },
  { path: '/reports/custom', label: 'Custom reports', isVisible: canSeeCustomReports },
  { path: '/my-approvals', label: 'My approvals', isVisible: canSign },
  { path: '/audit-log', label: 'Audit Log', isVisible: canReadAuditLog },
  { path: '/settings', label: 'Settings', isVisible: canSeeSettings },
  { path: '/mail-outbox', label: 'Mail Outbox', isVisible: canReadOutbox },
  { path: '/webhooks', label: 'Webhooks', isVisible: canSeeWebhooks },
  { path: '/feedback', label: 'Feedback', isVisible: canReadFeedback },
  { path: '/users', label: 'Users', isVisible: (p: MyPermissions) => canUseArea(p, 'users') },
  {
    path: '/users/service-accounts',
    label: 'Service accounts',
    isVisible: (p: MyPermissions) => canUseArea(p, 'users'),
  },
  { path: '/roles', label: 'Roles', isVisible: (p: MyPermissions) => canUseArea(p, 'roles') },
  {
    path: '/departments',
    label: 'Departments',
    isVisible: (p: MyPermissions) => canUseArea(p, 'departments'),
  },
  {
    path: '/operators',
    label: 'Operators',
    isVisible: (p: MyPermissions) => canUseArea(p, 'operators'),
  },
  {
    path: '/facilities',
    label: 'Facilities',
    isVisible: (p: MyPermissions) => canUseArea(p, 'facilities'),
  },
  {
    path: '/facility-groups',
    label: 'Facility groups',
    isVisible: (p: MyPermissions) => canUseArea(p, 'facility-groups'),
  },
] as const;

/**
 * The entries this user may open in this facility: areas with a permission stay hidden until it
 * is known, and areas the facility's tier or product type lacks are left out.
 */
export function visibleNavigation(
  permissions: MyPermissions | undefined,
  facility?: FacilityKind | undefined,
) {
  return NAVIGATION.filter(
    (item) =>
      canOpenScreen(facility, item.path) &&
      (!('isVisible' in item) || (permissions !== undefined && item.isVisible(permissions))),
  );
}
