import { Image, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import type { EquipmentImage, SamplingLocation } from '#client/shared/master-data/equipment-api.ts';
import { levelColor } from './LocationForms.tsx';

/**
 * A picture of the equipment with the sampling locations placed on it (issue 31): each a ring at
 * its x and y (fractions of the picture) in its risk level's colour, named on hover.
 */
export function PlacedImage({
  image,
  locations,
  height,
}: {
  image: EquipmentImage;
  locations: readonly SamplingLocation[];
  height: number;
}) {
  const placed = locations.filter((l) => l.imageId === image.id && l.x !== null && l.y !== null);
  return (
    <div style={{ position: 'relative', display: 'inline-block', lineHeight: 0 }}>
      <Image src={image.imageData} alt={image.name ?? 'Equipment image'} height={height} />
      {placed.map((l) => (
        <Tooltip key={l.id} title={`${l.name}: ${l.riskLevel ?? 'not assessed'} risk`}>
          <span aria-label={`Location ${l.name}`} style={markerStyle(l, l.x ?? 0, l.y ?? 0)} />
        </Tooltip>
      ))}
    </div>
  );
}

/** A location's ring at x and y (fractions of the picture), in its risk level's colour. */
export function markerStyle(
  location: Pick<SamplingLocation, 'riskLevel'>,
  x: number,
  y: number,
): CSSProperties {
  return {
    position: 'absolute',
    left: `${x * 100}%`,
    top: `${y * 100}%`,
    width: 16,
    height: 16,
    padding: 0,
    transform: 'translate(-50%, -50%)',
    borderRadius: '50%',
    border: `3px solid ${location.riskLevel ? levelColor[location.riskLevel] : '#1677ff'}`,
    background: 'rgba(255, 255, 255, 0.4)',
  };
}
