import { Tabs, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import {
  samplingAttributesDef,
  samplingPolicyDef,
} from '#core/entities/defs/sampling-policy.def.ts';
import { EntityListPage } from '../EntityListPage.tsx';

/** Where the screen lives in the master-data area. */
export const SAMPLING_POLICY_PATH = '/master-data/sampling-policy';
const ATTRIBUTES_PATH = `${SAMPLING_POLICY_PATH}/attributes`;

/**
 * Sampling Policy: how the facility samples (policies) and the criteria its sampling locations
 * are risk-assessed on (attributes), one tab each, so that a link can open either.
 */
export function SamplingPolicyPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.startsWith(ATTRIBUTES_PATH) ? ATTRIBUTES_PATH : SAMPLING_POLICY_PATH;
  return (
    <section aria-label="Sampling Policy">
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Sampling Policy
      </Typography.Title>
      <Tabs
        activeKey={active}
        onChange={(key) => void navigate(key)}
        destroyOnHidden
        items={[
          {
            key: SAMPLING_POLICY_PATH,
            label: 'Policies',
            children: <EntityListPage key={samplingPolicyDef.key} def={samplingPolicyDef} />,
          },
          {
            key: ATTRIBUTES_PATH,
            label: 'Assessment attributes',
            children: (
              <EntityListPage key={samplingAttributesDef.key} def={samplingAttributesDef} />
            ),
          },
        ]}
      />
    </section>
  );
}
