import { Alert, Button, Select, Space } from 'antd';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import type { SaveProblem } from './use-mapping-screen.ts';

interface MappingToolbarProps {
  screen: {
    id: number | undefined;
    pick: (id: number) => void;
    problem: SaveProblem;
    setDraft: (draft: null) => void;
    setAsking: (isAsking: boolean) => void;
    isReloading: boolean;
  };
  /** The picker: its accessible name, placeholder and the records to choose from. */
  label: string;
  placeholder: string;
  records: { data?: { data: EntityRecord[] }; isPending: boolean };
  saveText: string;
  isChanged: boolean;
  canSet: boolean;
  /** Reloads the saved mapping after a failed save; the ticks stay. */
  onReload: () => void;
  loadError: Error | null;
}

/**
 * The record picker of a mapping screen with its save and discard buttons, and why the last
 * save or load failed.
 */
export function MappingToolbar(props: MappingToolbarProps) {
  const { screen, isChanged } = props;
  const problem = screen.problem;
  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select
          aria-label={props.label}
          placeholder={props.placeholder}
          style={{ width: 320 }}
          showSearch={{ optionFilterProp: 'label' }}
          loading={props.records.isPending}
          value={screen.id}
          options={(props.records.data?.data ?? []).map((r) => ({
            value: r.id,
            label: String(r.name),
          }))}
          onChange={screen.pick}
        />
        <Button
          type="primary"
          disabled={!isChanged || !props.canSet || screen.isReloading}
          onClick={() => screen.setAsking(true)}
        >
          {props.saveText}
        </Button>
        <Button disabled={!isChanged} onClick={() => screen.setDraft(null)}>
          Discard ticks
        </Button>
      </Space>
      {problem ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={problem.title}
          description={problem.message}
          action={<Button onClick={props.onReload}>Load the latest version</Button>}
        />
      ) : null}
      {props.loadError ? <Alert type="error" title={props.loadError.message} /> : null}
    </>
  );
}
