import { Button, Tag } from 'antd';
import { useState } from 'react';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { InvestigationDrawer } from './InvestigationDrawer.tsx';
import {
  investigationCalls,
  useInvestigationWrite,
  type InvestigatedResult,
} from './investigation-api.ts';

/*
 * The investigation of a result on the run screen, one mechanism for sample and microbial
 * results: an out-of-specification result is set aside only through its laboratory
 * investigation (FDA OOS guidance 2006/2022), opened from the result and approved by QA; the
 * result it invalidates stays listed, struck through and labelled.
 */

/** What the action needs to know of a result. */
export interface ResultForInvestigation extends InvestigatedResult {
  /** Failing (a sample result judged not passed, a microbial one judged Fail). */
  failing: boolean;
  invalidatedBy: { number: string } | null;
}

const investigationOf = (run: TRun, result: InvestigatedResult) =>
  run.investigations.find(
    (i) => (result.microbial ? i.microbialResultId : i.resultId) === result.id,
  );

/**
 * The investigations of a run's results: `action` is the button of one result (its
 * investigation, or "Open investigation" on a failing one), `drawer` the investigation open.
 */
export function useResultInvestigations(run: TRun, canEdit: boolean) {
  const [investigating, setInvestigating] = useState<number | null>(null);
  const open = useInvestigationWrite(run.id, (scope, result: InvestigatedResult) =>
    investigationCalls.open(scope, result, {}),
  );
  const investigate = (result: InvestigatedResult) => {
    const known = investigationOf(run, result);
    if (known) return setInvestigating(known.id);
    open
      .mutateAsync(result)
      .then((opened) => setInvestigating(opened.id))
      .catch(showSaveError);
  };
  const investigation = run.investigations.find((i) => i.id === investigating);

  function action(result: ResultForInvestigation) {
    if (result.invalidatedBy) return null;
    const known = investigationOf(run, result);
    if (known)
      return <Button onClick={() => investigate(result)}>Investigation {known.number}</Button>;
    if (!result.failing || !canEdit) return null;
    return (
      <Button danger loading={open.isPending} onClick={() => investigate(result)}>
        Open investigation
      </Button>
    );
  }

  const drawer = investigation ? (
    <InvestigationDrawer
      run={run}
      investigation={investigation}
      canEdit={canEdit}
      onClose={() => setInvestigating(null)}
    />
  ) : null;
  return { action, drawer };
}

/** A result an approved investigation invalidated: kept and shown, never counted. */
export function InvalidatedTag({ result }: { result: ResultForInvestigation }) {
  if (!result.invalidatedBy) return null;
  return (
    <Tag
      color="default"
      data-testid={`invalidated-${result.microbial ? 'microbial-' : ''}${result.id}`}
    >
      Invalidated (investigation {result.invalidatedBy.number})
    </Tag>
  );
}
