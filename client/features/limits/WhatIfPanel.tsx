import { Alert, Button, InputNumber, List, Skeleton, Space, Switch, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { applyWhatIf, compareLimits } from '#core/limits/limits.what-if.ts';
import type { WhatIfEdit, WhatIfResult } from '#core/limits/limits.what-if.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { describeEdit } from '#client/shared/limits/what-if-format.ts';
import { useLimitsInput } from '#client/shared/limits/what-if-api.ts';
import { WhatIfEditForm } from './WhatIfEditForm.tsx';
import { WhatIfResults, WhyNothingMoves } from './WhatIfResults.tsx';

/**
 * The comparison of the limits in force (`input`) with `start` changed by the edits, or the
 * engine's complaint about the changed input (e.g. a unit it refuses). `start` is the input
 * itself, or the same data under the policy version being built.
 */
function useComparison(
  input: LimitsInput | undefined,
  start: LimitsInput | undefined,
  edits: readonly WhatIfEdit[],
  threshold: number | null,
): { result: WhatIfResult | null; error: string | null } {
  // Deferred: typing a threshold stays responsive while a large matrix is recomputed.
  const deferredEdits = useDeferredValue(edits);
  const deferredThreshold = useDeferredValue(threshold);
  return useMemo(() => {
    if (
      !input ||
      !start ||
      (start === input && deferredEdits.length === 0 && deferredThreshold === null)
    ) {
      return { result: null, error: null };
    }
    try {
      const after = applyWhatIf(start, deferredEdits);
      return {
        result: compareLimits(input, after, { salThreshold: deferredThreshold ?? undefined }),
        error: null,
      };
    } catch (error) {
      return { result: null, error: error instanceof Error ? error.message : String(error) };
    }
  }, [input, start, deferredEdits, deferredThreshold]);
}

/**
 * What-if on the MAC matrix: the facility's limits input, changed here and recomputed in the
 * browser by the same engine as the server's. Nothing is sent back.
 */
export function WhatIfPanel({ productionId }: { productionId?: number | undefined }) {
  const input = useLimitsInput(true, 'approved', productionId);
  // The Chemical policy's version being built (not in force until approved), previewed here.
  const [withDraft, setWithDraft] = useState(false);
  const draft = useLimitsInput(withDraft, 'draft', productionId);
  const [edits, setEdits] = useState<WhatIfEdit[]>([]);
  const [threshold, setThreshold] = useState<number | null>(null);
  const start = withDraft ? draft.data : input.data;
  const { result, error } = useComparison(input.data, start, edits, threshold);

  if (input.isPending) return <Skeleton active />;
  if (input.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="Could not load the limits input"
        description={input.error.message}
      />
    );
  }

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        title="Nothing here is saved"
        description="Changes are tried out in your browser only. Master data and the MAC matrix stay as they are until you change the records themselves."
      />
      <Space align="center">
        <Switch
          aria-label="Use the policy version being built"
          checked={withDraft}
          onChange={setWithDraft}
          loading={withDraft && draft.isPending}
        />
        <Typography.Text>
          Use the Chemical policy version being built (not in force until it is approved)
        </Typography.Text>
      </Space>
      <section aria-label="Try a change">
        <Typography.Title level={5}>Try a change</Typography.Title>
        <WhatIfEditForm input={input.data} onAdd={(edit) => setEdits((all) => [...all, edit])} />
      </section>
      {edits.length > 0 ? (
        <List
          size="small"
          bordered
          header={
            <Space>
              <Typography.Text strong>Changes being tried</Typography.Text>
              <Button size="small" onClick={() => setEdits([])}>
                Clear all
              </Button>
            </Space>
          }
          dataSource={edits.map((edit, index) => ({ edit, index }))}
          renderItem={({ edit, index }) => (
            <List.Item
              actions={[
                <Button
                  key="remove"
                  size="small"
                  type="link"
                  onClick={() => setEdits((all) => all.filter((_, i) => i !== index))}
                >
                  Remove
                </Button>,
              ]}
            >
              {describeEdit(edit)}
            </List.Item>
          )}
        />
      ) : null}
      <Space wrap align="center">
        <Typography.Text>Flag pairs whose SAL is below</Typography.Text>
        <InputNumber
          aria-label="SAL threshold"
          min={0}
          value={threshold}
          onChange={(v) => setThreshold(typeof v === 'number' ? v : null)}
          addonAfter="mg/cm²"
          style={{ width: 200 }}
        />
        <Typography.Text type="secondary">
          e.g. the method&apos;s LOQ over the swab area
        </Typography.Text>
      </Space>
      {error ? (
        <Alert type="error" showIcon title="The engine refused this change" description={error} />
      ) : null}
      {result ? <ResultSummary result={result} /> : null}
    </Space>
  );
}

function ResultSummary({ result }: { result: WhatIfResult }) {
  const listed = result.changes.length;
  const total = result.total;
  return (
    <section aria-label="What-if result">
      <Typography.Paragraph role="status">
        {result.moved} of {result.pairsBefore} pairs move ({result.lower} lower than before)
        {result.added > 0 ? `, ${result.added} new pairs` : ''}
        {result.below > 0
          ? `, ${result.below} below the threshold (${result.newlyBelow} newly)`
          : ''}
        .{listed < total ? ` The ${listed} most important are listed.` : ''}
      </Typography.Paragraph>
      {listed > 0 ? <WhatIfResults changes={result.changes} /> : null}
      {result.moved === 0 && result.staying.length > 0 ? (
        <WhyNothingMoves staying={result.staying} count={result.criteriaMoved} />
      ) : null}
    </section>
  );
}
