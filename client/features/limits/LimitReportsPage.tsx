import { Card, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePermissions } from '#client/shared/permissions.ts';
import { CleaningAgentLimitsTab } from './CleaningAgentLimitsTab.tsx';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { DerivationDrawer } from './DerivationDrawer.tsx';
import { EquipmentLimitsTab } from './EquipmentLimitsTab.tsx';
import { ProductionLimitsTab } from './ProductionLimitsTab.tsx';
import { WorstCaseRankingTab } from './WorstCaseRankingTab.tsx';
import { WorstProductsTab } from './WorstProductsTab.tsx';

/**
 * The limits reports of spec §3 (worst case ranking, equipment, production and cleaning agent
 * limits), each tab guarded by the permission of its call; the tab is kept in the address.
 */
export function LimitReportsPage() {
  const permissions = usePermissions();
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState<OpenDerivation | null>(null);
  const tabs = [
    permissions.can('RiskCalculation', 'Get') && {
      key: 'worst-case-ranking',
      label: 'Worst-case ranking',
      children: <WorstCaseRankingTab onOpen={setOpen} />,
    },
    (permissions.can('WorstProductOverride', 'Get') ||
      permissions.can('EquipmentWiseWorstProduct', 'Get')) && {
      key: 'worst-products',
      label: 'Worst-case products',
      children: <WorstProductsTab />,
    },
    permissions.can('EquipmentWiseCleaningLimit', 'Get') && {
      key: 'equipment',
      label: 'Equipment limits',
      children: <EquipmentLimitsTab onOpen={setOpen} />,
    },
    permissions.can('RiskCalculation', 'Get') && {
      key: 'productions',
      label: 'Production limits',
      children: <ProductionLimitsTab onOpen={setOpen} />,
    },
    permissions.can('EquipmentWiseCleaningAgentLimit', 'Get') && {
      key: 'cleaning-agents',
      label: 'Cleaning-agent limits',
      children: <CleaningAgentLimitsTab onOpen={setOpen} />,
    },
  ].filter((tab) => tab !== false);
  const active = tabs.find((t) => t.key === params.get('tab'))?.key ?? tabs[0]?.key;
  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        Limits
      </Typography.Title>
      {permissions.isLoading ? null : tabs.length === 0 ? (
        <Typography.Paragraph>You have no permission to see limits.</Typography.Paragraph>
      ) : (
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={tabs}
          destroyOnHidden
        />
      )}
      <DerivationDrawer open={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
