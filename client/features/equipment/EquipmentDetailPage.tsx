import { Alert, Breadcrumb, Card, Spin, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { usePermissions } from '../../app/permissions.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { equipmentKeys, getEquipment } from './equipment-api.ts';
import { equipmentDef } from '../../../core/entities/defs/equipment.def.ts';
import { RecordHistory } from '../audit-log/RecordHistory.tsx';
import { ImagesPanel } from './ImagesPanel.tsx';
import { LocationsPanel } from './LocationsPanel.tsx';

/** One item of equipment: its images and its sampling locations with their samples. */
export function EquipmentDetailPage() {
  const scope = useFacilityScope();
  const id = Number(useParams().id);
  const permissions = usePermissions();
  const equipment = useQuery({
    queryKey: equipmentKeys.one(scope.facilityId, id),
    queryFn: ({ signal }) => getEquipment(scope, id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0) return <Alert type="error" title="No such equipment" />;
  if (equipment.isError) return <Alert type="error" title={equipment.error.message} />;
  if (equipment.isPending || permissions.isLoading) return <Spin />;

  return (
    <Card>
      <Breadcrumb
        items={[
          { title: <Link to="/master-data/equipments">Equipment</Link> },
          { title: equipment.data.name },
        ]}
      />
      <Typography.Title level={2}>{equipment.data.name}</Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'locations',
            label: 'Sampling locations',
            children: (
              <LocationsPanel
                scope={scope}
                equipmentId={id}
                canEdit={permissions.can('SwabLocation', 'Modify')}
              />
            ),
          },
          {
            key: 'images',
            label: 'Images',
            children: (
              <ImagesPanel
                scope={scope}
                equipmentId={id}
                canEdit={permissions.can('Equipment', 'Modify')}
              />
            ),
          },
          {
            key: 'history',
            label: 'History',
            children: <RecordHistory def={equipmentDef} id={id} />,
          },
        ]}
      />
    </Card>
  );
}
