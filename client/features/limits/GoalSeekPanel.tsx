import { Button, Descriptions, Form, InputNumber, Select, Space, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import type { TGoalSeekAnswer } from '#core/schemas/limit-reports.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useNumberFormat, type NumberFormatter } from '#client/shared/use-number-format.ts';

type LimitName = TGoalSeekAnswer['requirement']['limit'];
type Solution = TGoalSeekAnswer['batchSize'];

const LIMITS: { value: LimitName; label: string; unit: string }[] = [
  { value: 'maco', label: 'MACO', unit: 'mg' },
  { value: 'sal', label: 'Surface limit (SAL)', unit: 'mg/cm²' },
  { value: 'swabLimit', label: 'Swab limit', unit: 'mg/swab' },
  { value: 'rinseLimit', label: 'Rinse limit', unit: 'mg/mL' },
];

/** One answer in words: the value it needs, or why no value of this input does. */
function describe(solution: Solution, format: NumberFormatter): string {
  const value = solution.value === null ? '' : format.quantity(solution.value, solution.unit);
  switch (solution.status) {
    case 'solved':
      return value;
    case 'passes':
      return `already reached (up to ${value})`;
    case 'unaffected':
      return 'does not change this limit';
    case 'impossible':
      return `no value does: ${solution.note}`;
  }
}

/**
 * "What would make this pass": the value a limit of the pair must reach (a method's LOQ, a
 * result found), and the smallest next batch size, the largest shared area or the lowest
 * recovery that reaches it, each with the other inputs as they are (GET {F}/mac-matrix/solve).
 */
export function GoalSeekPanel(props: { previous: string; next: string; productionId?: number }) {
  const scope = useFacilityScope();
  const format = useNumberFormat();
  const [form] = Form.useForm<{ limit: LimitName; atLeast: number }>();
  const solve = useMutation({
    mutationFn: (values: { limit: LimitName; atLeast: number }) =>
      apiRequest<TGoalSeekAnswer>(`${facilityPath(scope)}/mac-matrix/solve`, {
        query: {
          previous: props.previous,
          next: props.next,
          limit: values.limit,
          atLeast: values.atLeast,
          ...(props.productionId === undefined ? {} : { productionId: props.productionId }),
        },
        action: 'Solving for the limit',
      }),
  });
  const limit = Form.useWatch('limit', form) ?? 'swabLimit';
  const answer = solve.data;
  return (
    <section aria-label="What would make this pass">
      <Form
        form={form}
        layout="inline"
        initialValues={{ limit: 'swabLimit' }}
        onFinish={(values) => solve.mutate(values)}
      >
        <Form.Item name="limit" label="Limit">
          <Select options={LIMITS} style={{ minWidth: 180 }} />
        </Form.Item>
        <Form.Item
          name="atLeast"
          label="Must reach at least"
          rules={[{ required: true, message: 'Enter the value the limit must reach' }]}
        >
          <InputNumber
            min={0}
            suffix={LIMITS.find((l) => l.value === limit)?.unit}
            style={{ width: 200 }}
          />
        </Form.Item>
        <Button htmlType="submit" loading={solve.isPending}>
          Solve
        </Button>
      </Form>
      {answer ? (
        <Space orientation="vertical" style={{ marginTop: 12, width: '100%' }}>
          <Typography.Text type="secondary">
            The limit is {answer.current === null ? 'not computed' : format.number(answer.current)}{' '}
            {LIMITS.find((l) => l.value === answer.requirement.limit)?.unit} now.
          </Typography.Text>
          <Descriptions
            size="small"
            column={1}
            bordered
            items={[
              {
                key: 'batch',
                label: `Smallest batch size of ${props.next}`,
                children: describe(answer.batchSize, format),
              },
              {
                key: 'area',
                label: 'Largest shared area',
                children: describe(answer.area, format),
              },
              {
                key: 'recovery',
                label: 'Lowest recovery',
                children: describe(answer.recovery, format),
              },
            ]}
          />
        </Space>
      ) : null}
    </section>
  );
}
