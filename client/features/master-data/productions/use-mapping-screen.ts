import { message } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { describeSaveError } from '#client/api/form-errors.ts';

export type SaveProblem = { title: string; message: string } | null;

/**
 * The state of a mapping screen: the record chosen (kept in the address), the user's unsaved
 * ticks, the reason dialog's open state and the problem a failed save left. A conflict shows the
 * server's own words; the ticks stay for another try.
 */
export function useMappingScreen<D>(param: string, successText: string) {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get(param)) || undefined;
  const [draft, setDraft] = useState<D | null>(null);
  const [problem, setProblem] = useState<SaveProblem>(null);
  const [isAsking, setAsking] = useState(false);

  function pick(next: number): void {
    setProblem(null);
    setDraft(null);
    setParams({ [param]: String(next) });
  }

  async function run(save: () => Promise<unknown>): Promise<void> {
    try {
      await save();
      setDraft(null);
      setProblem(null);
      setAsking(false);
      void message.success(successText);
    } catch (error) {
      const described = describeSaveError(error);
      setProblem({
        title: described.title,
        message: error instanceof Error ? error.message : described.message,
      });
      setAsking(false);
    }
  }

  return { id, draft, setDraft, pick, problem, isAsking, setAsking, run };
}
