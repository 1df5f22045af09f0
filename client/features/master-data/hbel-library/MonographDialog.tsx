import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { POD_TYPES } from '#core/hbel/monograph-pde.ts';
import type { THbelMonographContent } from '#core/schemas/hbel-library.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  createMonograph,
  hbelKeys,
  newMonographVersion,
  type HbelMonograph,
} from './hbel-library-api.ts';

/*
 * A monograph's inputs as EMA/CHMP/CVMP/SWP/169430/2012 §4.1 lists them: the point of departure,
 * the adjustment factors F1–F5, a modifying and a pharmacokinetic factor, the body weight; the
 * server computes the PDE from them and the toxicologist's step of the approval policy signs it.
 */

type Values = THbelMonographContent & { reason?: string };

const FACTORS = [
  ['f1', 'F1 (species)'],
  ['f2', 'F2 (individuals)'],
  ['f3', 'F3 (study duration)'],
  ['f4', 'F4 (severity)'],
  ['f5', 'F5 (NOEL)'],
] as const;

const positive = [{ required: true, message: 'A value above 0 is required' }];

export function MonographDialog({
  monograph,
  onClose,
  onSaved,
}: {
  /** The monograph a new version is made of; none for a new one. */
  monograph: HbelMonograph | null;
  onClose: () => void;
  onSaved: (saved: HbelMonograph) => void;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const initial: Partial<Values> = monograph?.draft.monograph ?? {
    pointOfDeparture: {
      type: 'NOAEL',
      unit: 'mg/kg',
    } as THbelMonographContent['pointOfDeparture'],
    factors: { f1: 5, f2: 10, f3: 1, f4: 1, f5: 1 },
    modifyingFactor: 1,
    pkFactor: 1,
    bodyWeight: { value: 50, unit: 'kg' },
  };

  async function save(values: Values) {
    const { reason, ...content } = values;
    const saved = monograph
      ? await newMonographVersion(scope.planId, monograph.id, {
          ...content,
          version: monograph.version,
          reason: reason ?? '',
        })
      : await createMonograph(scope.planId, { ...content, signingFacilityId: scope.facilityId });
    await queryClient.invalidateQueries({ queryKey: hbelKeys.all(scope.planId) });
    onSaved(saved);
  }

  return (
    <ReasonDialog<Values>
      name="hbel-monograph"
      title={monograph ? `New version of ${monograph.number}` : 'New HBEL monograph'}
      okText="Save"
      width={720}
      askReason={monograph !== null}
      initialValues={initial}
      onSubmit={save}
      onClose={onClose}
    >
      <Row gutter={12}>
        <Col span={14}>
          <Form.Item
            label="Substance"
            name="substance"
            rules={[{ required: true, whitespace: true, message: 'A substance is required' }]}
          >
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item label="CAS number" name="casNumber">
            <Input maxLength={30} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col span={6}>
          <Form.Item label="Point of departure" name={['pointOfDeparture', 'type']}>
            <Select options={POD_TYPES.map((t) => ({ value: t, label: t }))} />
          </Form.Item>
        </Col>
        <Col span={9}>
          <Form.Item label="Dose" name={['pointOfDeparture', 'value']} rules={positive}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={9}>
          <Form.Item label="Dose unit" name={['pointOfDeparture', 'unit']}>
            <Select
              options={[
                { value: 'mg/kg', label: 'mg/kg per day' },
                { value: 'g/kg', label: 'g/kg per day' },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col span={8}>
          <Form.Item
            label="Species"
            name={['pointOfDeparture', 'species']}
            rules={[{ required: true, whitespace: true }]}
          >
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            label="Route"
            name={['pointOfDeparture', 'route']}
            rules={[{ required: true, whitespace: true }]}
          >
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item label="Body weight (kg)" name={['bodyWeight', 'value']} rules={positive}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="Study reference"
        name={['pointOfDeparture', 'studyReference']}
        rules={[{ required: true, whitespace: true, message: 'The study is required' }]}
      >
        <Input maxLength={1000} />
      </Form.Item>
      <Row gutter={12}>
        {FACTORS.map(([key, label]) => (
          <Col span={8} key={key}>
            <Form.Item label={label} name={['factors', key]} rules={positive}>
              <InputNumber min={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        ))}
        <Col span={8}>
          <Form.Item label="Modifying factor" name="modifyingFactor" rules={positive}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item label="Pharmacokinetic factor" name="pkFactor" rules={positive}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item hidden name={['bodyWeight', 'unit']}>
        <Input />
      </Form.Item>
      <Form.Item label="Rationale" name="rationale">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
    </ReasonDialog>
  );
}
