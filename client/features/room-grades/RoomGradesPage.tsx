import { isApiError } from '#client/api/api-error.ts';
import { VERSION_CONFLICT } from '#client/api/form-errors.ts';
import { Alert, Button, Card, Flex, Select, Spin, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePermissions } from '#client/shared/permissions.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { equipmentDef } from '#core/entities/defs/index.ts';
import { invalidateMasterData, roomGradeKeys } from '#client/shared/query-keys.ts';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { listRoomGrades, setGradeEquipment } from './room-grades-api.ts';
import type { RoomGrade } from './room-grades-api.ts';
import { NAME_PENDING } from '#client/shared/display-labels.ts';

function GradeCard({
  grade,
  equipment,
  canEdit,
  onSave,
}: {
  grade: RoomGrade;
  equipment: readonly EntityRecord[];
  canEdit: boolean;
  onSave: (grade: RoomGrade, ids: number[]) => void;
}) {
  const [chosen, setChosen] = useState<number[]>(grade.equipmentIds);
  const names = new Map(equipment.map((e) => [e.id, String(e.name)]));
  const changed =
    chosen.length !== grade.equipmentIds.length ||
    chosen.some((id) => !grade.equipmentIds.includes(id));
  return (
    <Card size="small" title={`Grade ${grade.grade}`} extra={grade.description}>
      <Flex vertical gap="small">
        <div>
          {grade.equipmentIds.length === 0 ? (
            <Typography.Text type="secondary">No equipment</Typography.Text>
          ) : (
            grade.equipmentIds.map((id) => <Tag key={id}>{names.get(id) ?? NAME_PENDING}</Tag>)
          )}
        </div>
        {canEdit ? (
          <>
            <Select
              mode="multiple"
              aria-label={`Equipment of grade ${grade.grade}`}
              value={chosen}
              onChange={setChosen}
              showSearch={{ optionFilterProp: 'label' }}
              options={equipment.map((e) => ({ value: e.id, label: String(e.name) }))}
            />
            <div>
              <Button disabled={!changed} onClick={() => onSave(grade, chosen)}>
                Save grade {grade.grade}
              </Button>
            </div>
          </>
        ) : null}
      </Flex>
    </Card>
  );
}

/** Room grades A–D (EU GMP Annex 1) and the equipment in each, assigned with a reason. */
export function RoomGradesPage() {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const queryClient = useQueryClient();
  const grades = useQuery({
    queryKey: roomGradeKeys.grades(scope.facilityId),
    queryFn: ({ signal }) => listRoomGrades(scope, signal),
  });
  // A grade lists live equipment only (the server leaves archived items out).
  const equipment = useEntityOptions(equipmentDef);
  const { ask, modal } = useReasonAction();
  if (grades.isError) return <Alert type="error" title={grades.error.message} />;
  const equipmentPending = equipment.isPending && !equipment.forbidden;
  if (grades.isPending || equipmentPending || permissions.isLoading) return <Spin />;
  const canEdit = permissions.can('Equipment', 'Modify');

  const save = (grade: RoomGrade, ids: number[]) =>
    ask({
      title: `Assign equipment to grade ${grade.grade}`,
      okText: 'Save',
      run: async (reason) => {
        // Equipment moves between grades, and the microbial limits follow the grade.
        const reload = () => invalidateMasterData(queryClient, scope.facilityId);
        try {
          await setGradeEquipment(scope, grade, ids, reason);
        } catch (error) {
          if (!isApiError(error) || error.errName !== 'VersionConflictError') throw error;
          // Someone saved the grade first: load their version; the choice made here is kept.
          await reload();
          throw new Error(VERSION_CONFLICT.message, { cause: error });
        }
        await reload();
      },
    });

  return (
    <Card>
      <Typography.Title level={2}>Room grades</Typography.Title>
      <Flex vertical gap="middle">
        {grades.data.map((grade) => (
          <GradeCard
            // Keyed by the grade alone: a reload after a version conflict keeps the choice made.
            key={grade.grade}
            grade={grade}
            equipment={equipment.data?.data ?? []}
            canEdit={canEdit}
            onSave={save}
          />
        ))}
      </Flex>
      {modal}
    </Card>
  );
}
