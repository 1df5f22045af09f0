import { useState, type ReactNode } from 'react';
import { ReasonDialog } from './ReasonDialog.tsx';

interface ReasonAction {
  title: string;
  okText: string;
  /** What the action does, shown above the reason (a consequence to know before it is taken). */
  description?: ReactNode;
  danger?: boolean;
  run: (reason: string) => Promise<unknown>;
}

/**
 * The reason dialog for a screen's actions (spec §5: archive, delete and edit take a reason):
 * `ask` opens it for an action; the action runs with the reason, and a failure keeps it open
 * with the server's message shown.
 */
export function useReasonAction() {
  const [action, setAction] = useState<ReasonAction | null>(null);
  const modal = (
    <ReasonDialog
      open={action !== null}
      title={action?.title ?? ''}
      okText={action?.okText ?? 'OK'}
      description={action?.description}
      danger={action?.danger ?? false}
      onClose={() => setAction(null)}
      onSubmit={async ({ reason }) => {
        if (action) await action.run(reason);
      }}
    />
  );
  return { ask: setAction, modal };
}
