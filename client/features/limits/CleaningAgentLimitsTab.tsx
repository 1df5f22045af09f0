import { unitLabel } from '#core/units/format-number.ts';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { byNumber, LimitCell } from './LimitCell.tsx';
import type { CleaningAgentLimit } from './limit-reports-api.ts';
import { useCleaningAgentLimits } from './limit-reports-api.ts';
import { criterionLabel } from './pair-explanation.ts';

/** The agent's own ceiling is no criterion of the matrix, so it has its own label here. */
const governingLabel = (key: string) =>
  key === 'ceiling' ? 'Agent’s ppm ceiling' : criterionLabel(key);
import { ReportTable } from './ReportTable.tsx';

const NUMBERS = [
  ['health', 'Health-based', 'mg'],
  ['ld50', 'LD50', 'mg'],
  ['arl', 'General limit', 'mg'],
  ['ceiling', 'Agent’s ppm ceiling', 'mg'],
  ['maco', 'MACO', 'mg'],
  ['area', 'Area', 'sqcm'],
  ['sal', 'SAL', 'mg/sqcm'],
] as const;

/** The derivation opened first, then the others of the same limit. */
function agentDerivation(row: CleaningAgentLimit, key: string): OpenDerivation {
  const keys = [key, ...Object.keys(row.derivations).filter((k) => k !== key)];
  return {
    title: `${row.agent} in ${row.next}`,
    subtitle: row.governing ? `Governed by ${governingLabel(row.governing)}` : undefined,
    sections: keys.flatMap((k) => {
      const derivation = row.derivations[k];
      return derivation ? [{ key: k, label: derivation.quantity, derivation }] : [];
    }),
  };
}

/** Cleaning-agent limits in every product that may follow, under the Detergent policy. */
export function CleaningAgentLimitsTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useCleaningAgentLimits();
  return (
    <ReportTable
      query={query}
      what="cleaning-agent limits"
      empty={{
        text: 'No cleaning-agent limits yet — add cleaning agents with their toxicology, and products on equipment.',
        to: '/master-data/cleaning_agents',
        link: 'Go to cleaning agents',
      }}
      rowsOf={(data) => data.limits}
      intro={() => (
        <>
          Each cleaning agent’s limit in each product that may follow it, under the Detergent
          policy. Click a number to see how it was reached.
        </>
      )}
      searchPlaceholder="Search agents or products"
      searchOf={(row) => [row.agent, row.next]}
      table={() => ({
        rowKey: (row) => `${row.agent}\u0000${row.next}`,
        columns: [
          {
            key: 'agent',
            title: 'Cleaning agent',
            dataIndex: 'agent',
            sorter: (a, b) => a.agent.localeCompare(b.agent),
          },
          {
            key: 'next',
            title: 'Next product',
            dataIndex: 'next',
            sorter: (a, b) => a.next.localeCompare(b.next),
          },
          ...NUMBERS.map(([key, title, unit]) => ({
            key,
            title: `${title} (${unitLabel(unit)})`,
            sorter: byNumber<CleaningAgentLimit>((row) => row[key]),
            render: (_: unknown, row: CleaningAgentLimit) => (
              <LimitCell
                value={row[key]}
                unit={unit}
                label={`${title} of ${row.agent} in ${row.next}`}
                onOpen={row.derivations[key] ? () => onOpen(agentDerivation(row, key)) : null}
              />
            ),
          })),
          {
            key: 'governing',
            title: 'Governing',
            render: (_: unknown, row: CleaningAgentLimit) =>
              row.governing ? governingLabel(row.governing) : '—',
          },
        ],
      })}
    />
  );
}
