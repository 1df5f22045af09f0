import { Card, Descriptions, Typography } from 'antd';
import type { Facility, LoginUser } from '../api/auth-types.ts';
import { fullName } from './AppHeader.tsx';
import { PRODUCT_TYPE_LABELS, TIER_LABELS } from './display-labels.ts';

interface HomePageProps {
  user: LoginUser;
  facility: Facility;
}

export function HomePage({ user, facility }: HomePageProps) {
  return (
    <Card>
      <Typography.Title level={2}>Welcome, {fullName(user)}</Typography.Title>
      <Typography.Paragraph type="secondary">
        You are working in {facility.name}.
      </Typography.Paragraph>
      <Descriptions
        bordered
        column={1}
        items={[
          { key: 'facility', label: 'Facility', children: facility.name },
          { key: 'group', label: 'Facility group', children: facility.facilityGroup?.name ?? '—' },
          {
            key: 'productType',
            label: 'Product type',
            children: PRODUCT_TYPE_LABELS[facility.productType] ?? facility.productType,
          },
          { key: 'tier', label: 'Tier', children: TIER_LABELS[facility.tier] ?? facility.tier },
        ]}
      />
    </Card>
  );
}
