import { Alert, Breadcrumb, Card, Spin, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { usePermissions } from '#client/shared/permissions.ts';
import { equipmentDef } from '#core/entities/defs/index.ts';
import { ArchivedNotice, NoSuchRecord, recordTabs } from '../RecordDetailPage.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { isApiError } from '#client/api/api-error.ts';
import { getEquipment } from '#client/shared/master-data/equipment-api.ts';
import { ImagesPanel } from './ImagesPanel.tsx';
import { LocationsPanel } from './LocationsPanel.tsx';
import { equipmentKeys } from '#client/shared/query-keys.ts';

/**
 * One item of equipment: its sampling locations with their samples, its images, its fields and
 * where it is used.
 */
export function EquipmentDetailPage() {
  const scope = useFacilityScope();
  const id = Number(useParams().id);
  const permissions = usePermissions();
  const equipment = useQuery({
    queryKey: equipmentKeys.one(scope.facilityId, id),
    queryFn: ({ signal }) => getEquipment(scope, id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0) return <NoSuchRecord def={equipmentDef} />;
  if (isApiError(equipment.error) && equipment.error.kind === 'resource-not-found')
    return <NoSuchRecord def={equipmentDef} />;
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
      <ArchivedNotice def={equipmentDef} record={equipment.data} />
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
          // Its fields, where it is used and its history, as on every record's page.
          ...(recordTabs(equipmentDef, equipment.data) ?? []),
        ]}
      />
    </Card>
  );
}
