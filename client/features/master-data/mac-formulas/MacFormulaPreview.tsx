import { Alert, Card, Empty, Form, Input, Select, Skeleton, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { explainPair } from '#core/limits/explain.ts';
import { MAC_FORMULA_VARIABLES, macFormulaProblem } from '#core/limits/mac-formula.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { DerivationSteps, OneDerivation } from '#client/shared/limits/OneDerivation.tsx';
import { useLimitsInput } from '#client/shared/limits/what-if-api.ts';

const PREVIEW = 'Preview';

/**
 * A formula's value for one pair of products, before it is saved or approved: the engine runs in
 * the browser on the facility's limits input with this formula as its only MAC formula, so the
 * reviewer sees the derivation the pair would show (values substituted, or why it has none).
 */
function preview(input: LimitsInput, expression: string, previous: string, next: string) {
  const explained = explainPair(
    { ...input, macFormulas: [{ id: PREVIEW, expression }] },
    previous,
    next,
  );
  return explained?.criteria.formula ?? null;
}

export function MacFormulaPreview() {
  const limitsInput = useLimitsInput(true);
  const [expression, setExpression] = useState('');
  const [previous, setPrevious] = useState<string>();
  const [next, setNext] = useState<string>();
  const typed = useDeferredValue(expression);
  const problem = typed.trim() === '' ? undefined : macFormulaProblem(typed);
  const products = (limitsInput.data?.products ?? []).map((p) => ({ value: p.id, label: p.id }));
  const derivation = useMemo(() => {
    if (!limitsInput.data || !previous || !next || problem || typed.trim() === '') return undefined;
    return preview(limitsInput.data, typed, previous, next);
  }, [limitsInput.data, previous, next, problem, typed]);

  return (
    <Card title="Preview a formula for one pair of products" size="small">
      <Typography.Paragraph type="secondary">
        Variables:{' '}
        {MAC_FORMULA_VARIABLES.map((v) => `${v.name} (${v.unit}): ${v.meaning}`).join('; ')}.
      </Typography.Paragraph>
      {limitsInput.isPending ? (
        <Skeleton active />
      ) : (
        <Form layout="vertical">
          <Form.Item
            label="Expression"
            validateStatus={problem ? 'error' : undefined}
            help={problem}
          >
            <Input
              aria-label="Expression to preview"
              value={expression}
              placeholder="TDD * MBS / (5000 * MDD)"
              onChange={(event) => setExpression(event.target.value)}
            />
          </Form.Item>
          {(
            [
              ['Previous product', previous, setPrevious],
              ['Next product', next, setNext],
            ] as const
          ).map(([label, value, onChange]) => (
            <Form.Item key={label} label={label}>
              <Select
                aria-label={label}
                showSearch
                options={products}
                value={value}
                onChange={onChange}
              />
            </Form.Item>
          ))}
        </Form>
      )}
      {derivation === null ? (
        <Alert type="info" message="These products share no equipment: there is no pair." />
      ) : derivation ? (
        <>
          <OneDerivation derivation={derivation} />
          <DerivationSteps steps={derivation.steps} />
        </>
      ) : (
        <Empty description="Type a formula and choose two products" />
      )}
    </Card>
  );
}
