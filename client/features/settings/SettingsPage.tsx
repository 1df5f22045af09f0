import { Card, Spin, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { usePermissions } from '#client/shared/permissions.ts';
import { AllowedDomainsForm } from './AllowedDomainsForm.tsx';
import { DateTimeSettingsForm } from './DateTimeSettingsForm.tsx';
import { DefaultUnitsTable } from './DefaultUnitsTable.tsx';
import { PasswordPolicyForm } from './PasswordPolicyForm.tsx';
import { SsoSettingsForm } from './SsoSettingsForm.tsx';
import { ActiveDirectorySettingsForm } from './ActiveDirectorySettingsForm.tsx';
import { AdditionalPropertiesPage } from './additional-properties/AdditionalPropertiesPage.tsx';

/**
 * Settings, one tab per area, each shown only with the permission the server checks for it:
 * password policy and allowed domains (User, plan-wide), date and time (anyone reads, Facility
 * Modify changes), default units (DefaultUnit).
 */
export function SettingsPage() {
  // Another screen may open a tab directly (Facilities links to Additional Properties).
  const tabAsked = useSearchParams()[0].get('tab');
  const permissions = usePermissions();
  if (permissions.isLoading) return <Spin />;

  const tabs = [
    permissions.canInPlan('User', 'Get') && {
      key: 'password-policy',
      label: 'Password policy',
      children: <PasswordPolicyForm canEdit={permissions.canInPlan('User', 'Modify')} />,
    },
    permissions.canInPlan('User', 'Get') && {
      key: 'allowed-domains',
      label: 'Allowed domains',
      children: <AllowedDomainsForm canEdit={permissions.canInPlan('User', 'Modify')} />,
    },
    permissions.canInPlan('User', 'Get') && {
      key: 'single-sign-on',
      label: 'Single sign-on',
      children: <SsoSettingsForm canEdit={permissions.canInPlan('User', 'Modify')} />,
    },
    permissions.canInPlan('User', 'Get') && {
      key: 'active-directory',
      label: 'Active Directory',
      children: <ActiveDirectorySettingsForm canEdit={permissions.canInPlan('User', 'Modify')} />,
    },
    {
      key: 'date-time',
      label: 'Date and time',
      children: <DateTimeSettingsForm canEdit={permissions.can('Facility', 'Modify')} />,
    },
    permissions.can('DefaultUnit', 'Get') && {
      key: 'default-units',
      label: 'Default units',
      children: <DefaultUnitsTable canEdit={permissions.can('DefaultUnit', 'Modify')} />,
    },
    permissions.can('Facility', 'Get') && {
      key: 'additional-properties',
      label: 'Additional Properties',
      children: (
        <AdditionalPropertiesPage
          canAdd={permissions.can('Facility', 'Add')}
          canEdit={permissions.can('Facility', 'Modify')}
          canArchive={permissions.can('Facility', 'Delete')}
        />
      ),
    },
  ].filter((tab) => tab !== false);

  return (
    <Card>
      <Typography.Title level={2}>Settings</Typography.Title>
      <Tabs items={tabs} defaultActiveKey={tabAsked ?? undefined} destroyOnHidden />
    </Card>
  );
}
