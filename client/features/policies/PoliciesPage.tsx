import { Card, Spin, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import type {
  TInspectionSettings,
  TMicrobialPolicy,
} from '#core/schemas/facility-rules.schemas.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { ApprovalPolicyEditor } from './ApprovalPolicyEditor.tsx';
import { InspectionFields, MicrobialFields } from './RuleFields.tsx';
import { PolicyTab } from '#client/shared/policies/PolicyTab.tsx';
import {
  loadInspection,
  loadMicrobial,
  usePolicyTab,
  RESIDUE_TYPES,
  rulesKeys,
  saveInspection,
  saveMicrobial,
} from '#client/shared/policies/rules-api.ts';
import { VersionedDocumentForm } from '#client/shared/policies/VersionedDocumentForm.tsx';

/**
 * Cleaning limit policies (one tab per residue type), the microbial policy, the inspection
 * settings and the approval policies: the facility's rules for limits and their documents.
 */
export function PoliciesPage() {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const [searchParams] = useSearchParams();
  // My approvals opens a limit policy by `?policy=documentId`: its residue type's tab.
  const policyId = Number(searchParams.get('policy')) || null;
  const policyTab = usePolicyTab(policyId);
  if (permissions.isLoading || (policyId !== null && policyTab.isPending)) return <Spin />;
  const canEditPolicy = permissions.can('CleaningPolicy', 'Modify');

  const tabs = [
    ...RESIDUE_TYPES.map((residueType) => ({
      key: residueType,
      label: residueType,
      children: <PolicyTab residueType={residueType} canEdit={canEditPolicy} />,
    })),
    {
      key: 'microbial',
      label: 'Microbial',
      children: (
        <VersionedDocumentForm<TMicrobialPolicy>
          name="microbial cleaning limit policy"
          queryKey={rulesKeys.microbial(scope.facilityId)}
          load={(signal) => loadMicrobial(scope, signal)}
          save={(changes, version, reason) => saveMicrobial(scope, changes, version, reason)}
          canEdit={canEditPolicy}
        >
          {() => <MicrobialFields />}
        </VersionedDocumentForm>
      ),
    },
    {
      key: 'inspection',
      label: 'Cleaning inspection',
      children: (
        <VersionedDocumentForm<TInspectionSettings>
          name="cleaning inspection settings"
          queryKey={rulesKeys.inspection(scope.facilityId)}
          load={(signal) => loadInspection(scope, signal)}
          save={(changes, version, reason) => saveInspection(scope, changes, version, reason)}
          canEdit={canEditPolicy}
        >
          {() => <InspectionFields />}
        </VersionedDocumentForm>
      ),
    },
    permissions.can('ApprovalPolicy', 'Get') && {
      key: 'approval',
      label: 'Approval policies',
      children: <ApprovalPolicyEditor canEdit={permissions.can('ApprovalPolicy', 'Modify')} />,
    },
  ].filter((tab) => tab !== false);

  return (
    <Card>
      <Typography.Title level={2}>Cleaning limit policies</Typography.Title>
      {/* My approvals opens the inspection settings by `?tab=inspection`. */}
      <Tabs
        items={tabs}
        destroyOnHidden
        defaultActiveKey={policyTab.data ?? searchParams.get('tab') ?? undefined}
      />
    </Card>
  );
}
