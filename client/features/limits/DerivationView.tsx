import { Alert, Collapse, Skeleton, Typography } from 'antd';
import { DerivationSteps, OneDerivation } from '#client/shared/limits/OneDerivation.tsx';
import { areaLabel, criterionLabel } from './pair-explanation.ts';
import { usePairDerivation } from './use-pair-derivation.ts';

/** The server's derivation of a pair from the facility's inputs, criterion by criterion. */
export function DerivationView({
  previous,
  next,
  productionId,
}: {
  previous: string;
  next: string;
  productionId?: number | undefined;
}) {
  const derivation = usePairDerivation(previous, next, productionId);
  if (derivation.isPending) return <Skeleton active />;
  if (derivation.isError) {
    return <Alert type="warning" showIcon title={derivation.error.message} />;
  }
  const { criteria, area, sal, swabLimit, rinseLimit } = derivation.data;
  const items = [
    ...Object.entries(criteria)
      .filter(([, d]) => d.result !== null)
      .map(([key, d]) => ({
        key,
        label: criterionLabel(key),
        // A MAC formula's steps carry its values substituted, what a reviewer redoes by hand.
        children:
          key === 'formula' ? (
            <>
              <OneDerivation derivation={d} />
              <DerivationSteps steps={d.steps} />
            </>
          ) : (
            <OneDerivation derivation={d} />
          ),
      })),
    { key: 'area', label: areaLabel(area), children: <OneDerivation derivation={area} /> },
    { key: 'sal', label: 'SAL', children: <OneDerivation derivation={sal} /> },
    ...(swabLimit
      ? [{ key: 'swab', label: 'Swab limit', children: <OneDerivation derivation={swabLimit} /> }]
      : []),
    ...(rinseLimit
      ? [
          {
            key: 'rinse',
            label: 'Rinse limit',
            children: <OneDerivation derivation={rinseLimit} />,
          },
        ]
      : []),
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">
        Each input with its unit and where it was recorded.
      </Typography.Paragraph>
      <Collapse size="small" items={items} />
    </>
  );
}
