import { Alert, Descriptions, Empty, Spin, Table } from 'antd';
import type {
  TMethodLimitFitResponse,
  TMethodLimitSide,
  TUnreachableLimit,
} from '#core/schemas/analytical-methods.schemas.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { useMethodLimitFit } from './method-limit-fit-api.ts';

const SIDES = ['swab', 'rinse'] as const;

/** The warning of one side whose LOQ is above its tightest limit; null when it can detect. */
export function limitFitWarning(sampleType: 'swab' | 'rinse', side: TMethodLimitSide) {
  if (side.canDetect !== false || side.limit === null) return null;
  if (side.loq === null)
    return `This method cannot show the tightest ${sampleType} limit it is used for (equipment ${side.equipmentName ?? '—'}): ${side.note ?? 'its LOQ cannot be stated as the active'}`;
  return `This method cannot detect residue at the tightest ${sampleType} limit it is used for: LOQ ${formatQuantity(side.loq, side.unit)} vs limit ${formatQuantity(side.limit, side.unit)} (equipment ${side.equipmentName ?? '—'})`;
}

function sideText(side: TMethodLimitSide): string {
  if (side.limit === null) return side.note ?? 'No limit';
  const limit = `${formatQuantity(side.limit, side.unit)} on ${side.equipmentName ?? '—'}${
    side.pair ? ` (${side.pair[0]} → ${side.pair[1]})` : ''
  }`;
  const loq =
    side.loq === null
      ? (side.note ?? 'LOQ not comparable')
      : `LOQ ${formatQuantity(side.loq, side.unit)}${side.loqConversion ? ` (${side.loqConversion})` : ''}: ${side.canDetect ? 'can detect' : 'cannot detect'}`;
  return `${limit}; ${loq}`;
}

function FitBody({ fit }: { fit: TMethodLimitFitResponse }) {
  if (!fit.isUsed) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="This method is not named by any sample yet, so there is no swab or rinse limit to compare its LOQ with."
      />
    );
  }
  const warnings = SIDES.map((type) => limitFitWarning(type, fit[type])).filter(
    (w): w is string => w !== null,
  );
  return (
    <>
      {warnings.map((warning) => (
        <Alert key={warning} type="warning" showIcon style={{ marginBottom: 8 }} title={warning} />
      ))}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="Tightest swab limit">{sideText(fit.swab)}</Descriptions.Item>
        <Descriptions.Item label="Tightest rinse limit">{sideText(fit.rinse)}</Descriptions.Item>
      </Descriptions>
      <Unreachable rows={fit.unreachable} />
    </>
  );
}

/**
 * Every location limit the method cannot show, as protocols and runs judge it (issue 26): a
 * protocol naming the method there is refused, a result by it there is never a pass.
 */
function Unreachable({ rows }: { rows: TUnreachableLimit[] }) {
  return (
    <section aria-label="Limits this method cannot reach" style={{ marginTop: 16 }}>
      <h4>Limits this method cannot reach</h4>
      {rows.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="This method can show every limit at the locations whose samples name it."
        />
      ) : (
        <Table<TUnreachableLimit>
          size="small"
          pagination={false}
          rowKey={(r) => `${r.samplingLocationId}:${r.sampleType}`}
          dataSource={rows}
          columns={[
            { title: 'Equipment', dataIndex: 'equipmentName' },
            { title: 'Location', dataIndex: 'samplingLocationName' },
            {
              title: 'Sample',
              dataIndex: 'sampleType',
              render: (type: TUnreachableLimit['sampleType']) =>
                type === 'swab' ? 'Swab' : 'Rinse',
            },
            {
              title: 'Limit',
              render: (_, r) => `${formatQuantity(r.limit, r.unit)}`,
            },
            { title: 'Pair', render: (_, r) => r.pair ?? '—' },
            { title: 'Why', dataIndex: 'reason' },
          ]}
        />
      )}
    </section>
  );
}

/** The method's LOQ against the tightest swab and rinse limit of the equipment it is used on. */
export function MethodLimitFit({ methodId }: { methodId: number }) {
  const query = useMethodLimitFit(methodId);
  return (
    <section aria-label="LOQ against limits" style={{ marginBottom: 16 }}>
      <h4>LOQ against the limits it is used for</h4>
      {query.isPending ? (
        <Spin />
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          title="The limits this method is used for could not be loaded."
        />
      ) : (
        <FitBody fit={query.data} />
      )}
    </section>
  );
}
