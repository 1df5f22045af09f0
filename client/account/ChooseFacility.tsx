import { Button, Collapse, Typography } from 'antd';
import type { CollapseProps } from 'antd';
import type { Facility } from '../api/auth-types.ts';
import { PRODUCT_TYPE_LABELS, TIER_LABELS } from '../shared/display-labels.ts';
import { groupFacilities } from './facility-groups.ts';

interface ChooseFacilityProps {
  facilities: Facility[];
  onChoose: (facility: Facility) => void;
}

export function ChooseFacility({ facilities, onChoose }: ChooseFacilityProps) {
  const groups = groupFacilities(facilities);
  const items: CollapseProps['items'] = groups.map(([groupName, members]) => ({
    key: groupName,
    label: groupName,
    children: (
      <ul className="facility-list" aria-label={`Facilities of ${groupName}`}>
        {members.map((facility) => (
          <li key={facility.id}>
            <Button
              type="text"
              block
              className="facility-option"
              onClick={() => onChoose(facility)}
            >
              {facility.name}
              {/* What the facility makes and its tier decide which screens it has. */}
              <Typography.Text type="secondary">
                {' '}
                {PRODUCT_TYPE_LABELS[facility.productType]} · {TIER_LABELS[facility.tier]}
              </Typography.Text>
            </Button>
          </li>
        ))}
      </ul>
    ),
  }));
  return <Collapse accordion items={items} defaultActiveKey={groups[0]?.[0]} />;
}
