import { Drawer, List, Typography } from 'antd';
import type { TJudgement } from '#core/schemas/verification.schemas.ts';

/** The steps of a judgement, one line each (recovery, correction, limit, percent, verdict). */
export function DerivationDrawer(props: {
  title: string;
  judgement: TJudgement;
  /** The browser's preview says so: the saved judgement is the server's. */
  isPreview: boolean;
  onClose: () => void;
}) {
  return (
    <Drawer open title={props.title} onClose={props.onClose} size="large">
      {props.isPreview ? (
        <Typography.Paragraph type="secondary">
          Preview computed in the browser; the judgement saved with the result is the server&apos;s.
        </Typography.Paragraph>
      ) : null}
      <List
        aria-label="Derivation"
        size="small"
        dataSource={props.judgement.derivation}
        renderItem={(line) => <List.Item>{line}</List.Item>}
      />
    </Drawer>
  );
}
