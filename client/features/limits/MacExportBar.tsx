import { Alert, Button, Select, Space, Typography } from 'antd';
import { productionsDef } from '#core/entities/defs/index.ts';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { useMacExport, useProductionPdf } from '#client/shared/limits/mac-export-api.ts';

interface MacExportBarProps {
  productionId: number | undefined;
  onProductionChange: (productionId: number | undefined) => void;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/**
 * The matrix's scope (the facility or one production) and its downloads: the xlsx of what is
 * shown, and the PDFs of the chosen production.
 */
export function MacExportBar({ productionId, onProductionChange }: MacExportBarProps) {
  const productions = useEntityOptions(productionsDef);
  // While the permissions load the picker shows, empty; it goes if they do not allow the list.
  const canListProductions = !productions.forbidden;
  const { mutation: exporting, bytes } = useMacExport();
  const pdf = useProductionPdf();
  const options = (productions.data?.data ?? []).map((p) => ({
    label: String(p.name),
    value: p.id,
  }));
  const pdfFor = (kind: 'mac' | 'nitrosamine') =>
    productionId === undefined ? undefined : () => pdf.mutate({ productionId, kind });

  return (
    <div style={{ marginBottom: 16 }}>
      <Space wrap>
        {canListProductions ? (
          <Select
            aria-label="Production"
            style={{ minWidth: 240 }}
            placeholder="All productions"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={productions.isPending}
            value={productionId}
            onChange={(value?: number) => onProductionChange(value)}
            options={options}
          />
        ) : null}
        <Button
          type="primary"
          loading={exporting.isPending}
          disabled={exporting.isPending}
          onClick={() => exporting.mutate(productionId)}
        >
          Export to Excel
        </Button>
        {productionId !== undefined ? (
          <>
            <Button
              loading={pdf.isPending && pdf.variables?.kind === 'mac'}
              onClick={pdfFor('mac')}
            >
              PDF
            </Button>
            <Button
              loading={pdf.isPending && pdf.variables?.kind === 'nitrosamine'}
              onClick={pdfFor('nitrosamine')}
            >
              Nitrosamine PDF
            </Button>
          </>
        ) : null}
        {exporting.isPending ? (
          <Typography.Text role="status" type="secondary">
            Exporting… {megabytes(bytes)} received
          </Typography.Text>
        ) : exporting.isSuccess ? (
          <Typography.Text type="success">Saved {exporting.data}</Typography.Text>
        ) : null}
      </Space>
      {exporting.isError || pdf.isError ? (
        <Alert
          style={{ marginTop: 8 }}
          type="error"
          showIcon
          title="The download failed"
          description={(exporting.error ?? pdf.error)?.message}
        />
      ) : null}
    </div>
  );
}
