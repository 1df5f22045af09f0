import {
  Alert,
  Button,
  Card,
  Drawer,
  Flex,
  Segmented,
  Select,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EQUIPMENT_STATES } from '#core/equipment-status/equipment-status.ts';
import { productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { downloadRecordPdf } from '#client/shared/records/records-api.ts';
import {
  EQUIPMENT_STATE_LABELS as STATE_LABELS,
  LOGBOOK_EVENT_LABELS,
} from '#core/equipment-status/equipment-status-labels.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { countdown, STATE_COLOURS } from './countdown.ts';
import { RecordEntryDialog } from './RecordEntryDialog.tsx';
import {
  equipmentStatusKeys,
  listEquipmentStatus,
  readLogbook,
  recordEntry,
  type EquipmentState,
  type LogbookEntry,
  type EquipmentStatusItem,
} from './equipment-status-api.ts';
import { NAME_PENDING } from '#client/shared/display-labels.ts';

/** The clock the countdowns run on, ticking each half minute. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A moment on the facility's clock and in its formats, as every other screen shows it. */
function useWhen(): (iso: string | null) => string {
  const { formatDateTime } = useDateFormat();
  return (iso) => (iso ? formatDateTime(iso) : '—');
}

function ItemCard({
  item,
  now,
  productName,
  onOpen,
  onRecord,
}: {
  item: EquipmentStatusItem;
  now: number;
  productName: (id: number | null) => string;
  onOpen: () => void;
  onRecord: (() => void) | null;
}) {
  const when = useWhen();
  const dirty = item.state === 'Dirty' ? countdown(item.dirtyHoldDueAt, now) : null;
  const clean =
    item.state === 'Released' || item.state === 'CleanAwaitingRelease'
      ? countdown(item.cleanHoldExpiresAt, now)
      : null;
  return (
    <Card
      size="small"
      style={{ width: 300 }}
      title={<span style={{ fontSize: 20 }}>{item.name}</span>}
      aria-label={`Equipment ${item.name}`}
    >
      <Flex vertical gap={4}>
        <Tag color={STATE_COLOURS[item.state]} style={{ fontSize: 20, padding: '6px 10px' }}>
          {STATE_LABELS[item.state]}
        </Tag>
        <Typography.Text type="secondary">Since {when(item.since)}</Typography.Text>
        {item.lastBatch ? (
          <Typography.Text>
            Last: {productName(item.lastProductId)}, batch {item.lastBatch}
          </Typography.Text>
        ) : null}
        {dirty ? <Typography.Text strong>Dirty hold: {dirty}</Typography.Text> : null}
        {clean ? <Typography.Text strong>Clean hold: {clean}</Typography.Text> : null}
        {item.blockingReasons.map((reason) => (
          <Typography.Text key={reason} type="danger">
            {reason}
          </Typography.Text>
        ))}
        <Flex gap="small">
          <Button onClick={onOpen}>Logbook</Button>
          {onRecord ? (
            <Button type="primary" onClick={onRecord}>
              Record
            </Button>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}

function LogbookDrawer({
  item,
  productName,
  canCorrect,
  onClose,
}: {
  item: EquipmentStatusItem | null;
  productName: (id: number | null) => string;
  canCorrect: boolean;
  onClose: () => void;
}) {
  const when = useWhen();
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [correcting, setCorrecting] = useState<LogbookEntry | null>(null);
  const logbook = useQuery({
    queryKey: equipmentStatusKeys.logbook(scope.facilityId, item?.equipmentId ?? 0),
    queryFn: ({ signal }) => readLogbook(scope, item!.equipmentId, signal),
    enabled: item !== null,
  });
  const [printing, setPrinting] = useState<number | null>(null);
  const printRelease = (e: LogbookEntry) => {
    const versionNumber = e.releaseNumber;
    if (!item || versionNumber === null) return;
    setPrinting(e.id);
    // Errors are shown by the http handler; the button only stops spinning.
    downloadRecordPdf(
      scope,
      { documentType: 'EquipmentRelease', documentId: item.equipmentId, versionNumber },
      `Release of ${item.name} ${versionNumber}.pdf`,
    )
      .catch(() => undefined)
      .finally(() => setPrinting(null));
  };
  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      size="large"
      title={item ? `Equipment log: ${item.name}` : ''}
      extra={<Button onClick={() => window.print()}>Print</Button>}
    >
      {logbook.isError ? <Alert type="error" title={logbook.error.message} /> : null}
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        loading={logbook.isPending}
        dataSource={logbook.data?.entries ?? []}
        rowClassName={(e) => (e.correctedBy ? 'logbook-corrected' : '')}
        columns={[
          { title: 'When', dataIndex: 'at', render: (at: string) => when(at) },
          {
            title: 'Event',
            dataIndex: 'event',
            render: (event: LogbookEntry['event']) => LOGBOOK_EVENT_LABELS[event],
          },
          { title: 'By', dataIndex: 'recordedByName' },
          {
            title: 'Product / batch',
            render: (_, e) => (e.batch ? `${productName(e.productId)} / ${e.batch}` : ''),
          },
          {
            title: 'Notes',
            render: (_, e) => {
              // Entries by what a person recognises: their event and time, never their ids.
              const entry = (id: number | null) =>
                logbook.data?.entries.find((other) => other.id === id);
              const corrected = entry(e.correctsId);
              const correction = entry(e.correctedBy);
              return [
                e.backDated ? `Back-dated (recorded ${when(e.recordedAt)})` : null,
                e.reason,
                corrected
                  ? `Corrects the ${LOGBOOK_EVENT_LABELS[corrected.event]} entry of ${when(corrected.at)}`
                  : null,
                correction ? `Corrected on ${when(correction.at)}` : null,
                e.signatureMeaning ? `${e.signatureMeaning}: ${e.signerPrintedName}` : null,
                e.releasedAtRisk ? 'Released at risk' : null,
                e.runName ? `Verification run ${e.runName}` : null,
              ]
                .filter(Boolean)
                .join('; ');
            },
          },
          {
            title: 'Signature',
            render: (_: unknown, e: LogbookEntry) =>
              e.event === 'Released' && e.signatureMeaning ? (
                <Button size="small" loading={printing === e.id} onClick={() => printRelease(e)}>
                  Release PDF
                </Button>
              ) : null,
          },
          ...(canCorrect
            ? [
                {
                  title: '',
                  render: (_: unknown, e: LogbookEntry) =>
                    e.event === 'Correction' || e.correctedBy ? null : (
                      <Button size="small" onClick={() => setCorrecting(e)}>
                        Correct
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      {correcting && item ? (
        <ReasonDialog
          title={`Correct the entry ${LOGBOOK_EVENT_LABELS[correcting.event]}, ${when(correcting.at)}`}
          description="The entry stays in the log, marked as corrected; the item's state is judged without it. Record the right entry afterwards."
          okText="Correct"
          onSubmit={async ({ reason }) => {
            await recordEntry(scope, item.equipmentId, {
              event: 'Correction',
              correctsId: correcting.id,
              reason,
            });
            await queryClient.invalidateQueries({
              queryKey: equipmentStatusKeys.all(scope.facilityId),
            });
          }}
          onClose={() => setCorrecting(null)}
        />
      ) : null}
    </Drawer>
  );
}

/**
 * The status board of the line (issue 31): every item's state, readable from a step away, with
 * countdowns to its hold deadlines; filter by state; each item's logbook, printable.
 */
export function EquipmentStatusPage() {
  const scope = useFacilityScope();
  const now = useNow();
  const [state, setState] = useState<EquipmentState | 'All'>('All');
  const [open, setOpen] = useState<EquipmentStatusItem | null>(null);
  const [line, setLine] = useState<number | null>(null);
  const [recording, setRecording] = useState<EquipmentStatusItem | null>(null);
  const canRecord = usePermissions().can('Equipment', 'Modify');
  const lines = useEntityOptions(productionsDef);
  const board = useQuery({
    queryKey: equipmentStatusKeys.board(scope.facilityId, line),
    queryFn: ({ signal }) => listEquipmentStatus(scope, line, signal),
    refetchInterval: 60_000,
  });
  const products = useEntityOptions(productsDef);
  const names = new Map((products.data?.data ?? []).map((p) => [p.id, String(p.name)]));
  const productName = (id: number | null) => (id === null ? '—' : (names.get(id) ?? NAME_PENDING));
  if (board.isError) return <Alert type="error" title={board.error.message} />;
  if (board.isPending) return <Spin />;
  const { items, trains } = board.data;
  const shown = items.filter((i) => state === 'All' || i.state === state);
  const count = (s: EquipmentState) => items.filter((i) => i.state === s).length;
  return (
    <Card>
      <Typography.Title level={2}>Equipment status</Typography.Title>
      <Flex vertical gap="middle">
        <Select
          aria-label="Filter by line"
          allowClear
          placeholder="All lines"
          style={{ maxWidth: 360 }}
          value={line}
          onChange={(value: number | undefined) => setLine(value ?? null)}
          options={(lines.data?.data ?? []).map((p) => ({ value: p.id, label: String(p.name) }))}
        />
        <Segmented
          aria-label="Filter by state"
          value={state}
          onChange={(value) => setState(value as EquipmentState | 'All')}
          options={[
            { value: 'All', label: `All (${items.length})` },
            ...EQUIPMENT_STATES.map((s) => ({
              value: s,
              label: `${STATE_LABELS[s]} (${count(s)})`,
            })),
          ]}
        />
        {trains.length > 0 ? (
          <Flex wrap gap="small" aria-label="Trains">
            {trains.map((train) => (
              <Tag
                key={train.productionId}
                color={STATE_COLOURS[train.state]}
                style={{ fontSize: 16, padding: '4px 8px' }}
                title={train.blockingReasons.join('\n')}
              >
                {train.name}: {STATE_LABELS[train.state]}
              </Tag>
            ))}
          </Flex>
        ) : null}
        <Flex wrap gap="middle">
          {shown.length === 0 ? (
            <Typography.Text type="secondary">No equipment in this state</Typography.Text>
          ) : (
            shown.map((item) => (
              <ItemCard
                key={item.equipmentId}
                item={item}
                now={now}
                productName={productName}
                onOpen={() => setOpen(item)}
                onRecord={canRecord ? () => setRecording(item) : null}
              />
            ))
          )}
        </Flex>
      </Flex>
      <LogbookDrawer
        item={open}
        productName={productName}
        canCorrect={canRecord}
        onClose={() => setOpen(null)}
      />
      {recording ? <RecordEntryDialog item={recording} onClose={() => setRecording(null)} /> : null}
    </Card>
  );
}
