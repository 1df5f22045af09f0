import { Button, Card, Flex, Form, InputNumber, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { editLocation } from '#client/shared/master-data/equipment-api.ts';
import type { EquipmentImage, SamplingLocation } from '#client/shared/master-data/equipment-api.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { equipmentKeys } from '#client/shared/query-keys.ts';
import { markerStyle } from './PlacedImage.tsx';

interface Point {
  x: number;
  y: number;
}

/** A fraction of the picture, kept to four places and within it. */
const fraction = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;

const positionOn = (image: EquipmentImage, l: SamplingLocation): Point | null =>
  l.imageId === image.id && l.x !== null && l.y !== null ? { x: l.x, y: l.y } : null;

/**
 * Places the equipment's sampling locations on one of its pictures (issue 31): choose a
 * location, then click its place, drag its marker, move it with the arrow keys or type where it
 * is; the position is saved as an edit of the location, with a reason, and can be taken off.
 */
export function PlacementEditor({
  scope,
  equipmentId,
  image,
  locations,
  onClose,
}: {
  scope: FacilityScope;
  equipmentId: number;
  image: EquipmentImage;
  locations: readonly SamplingLocation[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { ask, modal } = useReasonAction();
  const picture = useRef<HTMLImageElement>(null);
  const dragging = useRef(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [pending, setPending] = useState<Point | null>(null);
  const selected = locations.find((l) => l.id === selectedId) ?? null;
  const saved = selected ? positionOn(image, selected) : null;
  const changed = pending !== null && (saved?.x !== pending.x || saved.y !== pending.y);

  function select(location: SamplingLocation) {
    if (location.id === selectedId) return;
    setSelectedId(location.id);
    setPending(positionOn(image, location));
  }

  /** The point of the picture under the pointer. */
  function pointAt(clientX: number, clientY: number): Point | null {
    const box = picture.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    return {
      x: fraction((clientX - box.left) / box.width),
      y: fraction((clientY - box.top) / box.height),
    };
  }

  function startDrag(event: PointerEvent<HTMLButtonElement>, location: SamplingLocation) {
    select(location);
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
  }

  function drag(event: PointerEvent<HTMLButtonElement>) {
    if (!dragging.current) return;
    const point = pointAt(event.clientX, event.clientY);
    if (point) setPending(point);
  }

  function nudge(event: KeyboardEvent<HTMLButtonElement>) {
    const step = event.shiftKey ? 0.05 : 0.01;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move || !pending) return;
    event.preventDefault();
    setPending({ x: fraction(pending.x + move[0]), y: fraction(pending.y + move[1]) });
  }

  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, false).slice(0, 5),
    });

  function save(location: SamplingLocation, point: Point) {
    ask({
      title: `Place ${location.name}`,
      okText: 'Save position',
      run: async (reason) => {
        await editLocation(
          scope,
          equipmentId,
          location,
          { imageId: image.id, x: point.x, y: point.y },
          reason,
        );
        await refresh();
      },
    });
  }

  function takeOff(location: SamplingLocation) {
    ask({
      title: `Take ${location.name} off the picture`,
      okText: 'Take off',
      danger: true,
      run: async (reason) => {
        await editLocation(
          scope,
          equipmentId,
          location,
          { imageId: null, x: null, y: null },
          reason,
        );
        setPending(null);
        await refresh();
      },
    });
  }

  const percent = (part: 'x' | 'y') => (pending ? Math.round(pending[part] * 1000) / 10 : null);
  const setPercent = (part: 'x' | 'y', value: number | null) => {
    if (value === null) return;
    const other = pending ?? { x: 0.5, y: 0.5 };
    setPending({ ...other, [part]: fraction(value / 100) });
  };
  const where = !selected
    ? null
    : saved
      ? 'On this picture.'
      : selected.imageId !== null
        ? 'On another picture of this equipment; saving moves it here.'
        : 'Not placed yet.';

  return (
    <Card
      size="small"
      title={`Place locations on ${image.name ?? 'the image'}`}
      extra={<Button onClick={onClose}>Done</Button>}
    >
      <Flex vertical gap="small">
        <Typography.Text type="secondary">
          Choose a location, then click its place on the picture or drag its marker. The arrow keys
          move the chosen marker; the fields below take its place as typed.
        </Typography.Text>
        <Form layout="inline">
          <Form.Item label="Location to place" htmlFor="placement-location">
            <Select
              id="placement-location"
              style={{ minWidth: 220 }}
              value={selectedId ?? undefined}
              placeholder="Choose a location"
              options={locations.map((l) => ({ value: l.id, label: l.name }))}
              onChange={(id: number) => {
                const location = locations.find((l) => l.id === id);
                if (location) select(location);
              }}
            />
          </Form.Item>
          {(
            [
              ['x', 'Across the picture (%)'],
              ['y', 'Down the picture (%)'],
            ] as const
          ).map(([part, label]) => (
            <Form.Item key={part} label={label} htmlFor={`placement-${part}`}>
              <InputNumber
                id={`placement-${part}`}
                min={0}
                max={100}
                disabled={!selected}
                value={percent(part)}
                onChange={(value) => setPercent(part, value)}
              />
            </Form.Item>
          ))}
        </Form>
        {where ? <Typography.Text>{where}</Typography.Text> : null}
        <div style={{ position: 'relative', display: 'inline-block', alignSelf: 'flex-start' }}>
          <img
            ref={picture}
            src={image.imageData}
            alt={`${image.name ?? 'Equipment image'} to place locations on`}
            draggable={false}
            onClick={(event) => {
              if (!selected) return;
              const point = pointAt(event.clientX, event.clientY);
              if (point) setPending(point);
            }}
            style={{
              display: 'block',
              width: 560,
              maxWidth: '100%',
              height: 'auto',
              cursor: selected ? 'crosshair' : 'default',
            }}
          />
          {locations.map((l) => {
            const point = l.id === selectedId ? pending : positionOn(image, l);
            if (!point) return null;
            const chosen = l.id === selectedId;
            return (
              <button
                key={l.id}
                type="button"
                aria-label={`Marker of ${l.name}`}
                aria-pressed={chosen}
                onPointerDown={(event) => startDrag(event, l)}
                onPointerMove={drag}
                onPointerUp={() => (dragging.current = false)}
                onFocus={() => select(l)}
                onKeyDown={nudge}
                style={{
                  ...markerStyle(l, point.x, point.y),
                  cursor: 'move',
                  touchAction: 'none',
                  outline: chosen ? '2px solid #000' : undefined,
                  outlineOffset: 2,
                }}
              />
            );
          })}
        </div>
        <Flex gap="small">
          <Button
            type="primary"
            disabled={!selected || !pending || !changed}
            onClick={() => selected && pending && save(selected, pending)}
          >
            Save position
          </Button>
          <Button
            danger
            disabled={!selected || !saved}
            onClick={() => selected && takeOff(selected)}
          >
            Take off the picture
          </Button>
        </Flex>
      </Flex>
      {modal}
    </Card>
  );
}
