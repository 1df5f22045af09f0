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
  const [draft, setTicks] = useState<D | null>(null);
  const [problem, setProblem] = useState<SaveProblem>(null);
  const [isAsking, setAsking] = useState(false);
  // The version the ticks were made from, held from the first tick: live updates refetch the
  // saved map meanwhile, and sending the newer version would save over another user's change
  // unseen (21 CFR 11.10(e)); the save is refused instead and the user reloads.
  const [base, setBase] = useState<number | null>(null);
  const [isReloading, setReloading] = useState(false);

  function setDraft(next: D | null, savedVersion?: number): void {
    if (next === null) setBase(null);
    else if (savedVersion !== undefined) setBase((held) => held ?? savedVersion);
    setTicks(next);
  }

  /** The version a save sends: the one the ticks began from, else the saved map's. */
  function versionOf(savedVersion: number): number {
    return base ?? savedVersion;
  }

  /** Reloads the saved map after a conflict; the ticks then apply to the version reloaded. */
  async function reload(refetch: () => Promise<unknown>): Promise<void> {
    setReloading(true);
    try {
      await refetch();
      setBase(null);
    } finally {
      setReloading(false);
    }
  }

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

  return {
    id,
    draft,
    setDraft,
    versionOf,
    reload,
    isReloading,
    pick,
    problem,
    isAsking,
    setAsking,
    run,
  };
}
