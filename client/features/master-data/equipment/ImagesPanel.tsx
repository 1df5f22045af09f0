import { Button, Card, Empty, Flex, notification, Upload } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import {
  addImage,
  deleteImage,
  listImages,
  listLocations,
} from '#client/shared/master-data/equipment-api.ts';
import { PlacedImage } from './PlacedImage.tsx';
import { PlacementEditor } from './PlacementEditor.tsx';
import { imageFileProblem, readAsDataUrl } from './image-file.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { equipmentKeys } from '#client/shared/query-keys.ts';

/** The equipment's photographs: added and removed with a reason, the record kept. */
export function ImagesPanel({
  scope,
  equipmentId,
  canEdit,
}: {
  scope: FacilityScope;
  equipmentId: number;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const key = equipmentKeys.images(scope.facilityId, equipmentId);
  const images = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listImages(scope, equipmentId, signal),
  });
  // The same list the locations panel shows, so a placed location appears on its picture.
  const locations = useQuery({
    queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, false),
    queryFn: ({ signal }) => listLocations(scope, equipmentId, false, signal),
  });
  const { ask, modal } = useReasonAction();
  // The picture whose locations are being placed, if any.
  const [placing, setPlacing] = useState<number | null>(null);
  const placingImage = images.data?.find((image) => image.id === placing) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  function choose(file: File): false {
    const problem = imageFileProblem(file);
    if (problem) {
      notification.warning({ title: 'Image not added', description: problem });
      return false;
    }
    ask({
      title: `Add ${file.name}`,
      okText: 'Add image',
      run: async (reason) => {
        await addImage(scope, equipmentId, {
          imageData: await readAsDataUrl(file),
          name: file.name,
          reason,
        });
        await refresh();
      },
    });
    // Upload is only the file picker here; the reason dialog sends the image.
    return false;
  }

  return (
    <Flex vertical gap="middle">
      {canEdit ? (
        <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={choose}>
          <Button>Add image</Button>
        </Upload>
      ) : null}
      {images.data?.length === 0 ? <Empty description="No images yet" /> : null}
      <Flex wrap gap="middle">
        {images.data?.map((image) => (
          <Card
            key={image.id}
            size="small"
            style={{ width: 220 }}
            cover={<PlacedImage image={image} locations={locations.data ?? []} height={160} />}
            actions={
              canEdit
                ? [
                    <Button key="place" type="link" onClick={() => setPlacing(image.id)}>
                      Place locations
                    </Button>,
                    <Button
                      key="delete"
                      type="link"
                      danger
                      onClick={() =>
                        ask({
                          title: `Remove ${image.name ?? 'the image'}`,
                          okText: 'Remove',
                          danger: true,
                          run: async (reason) => {
                            await deleteImage(scope, equipmentId, image.id, reason);
                            await refresh();
                          },
                        })
                      }
                    >
                      Remove
                    </Button>,
                  ]
                : []
            }
          >
            <Card.Meta
              title={image.name ?? 'Image'}
              description={`${Math.ceil(image.sizeBytes / 1024)} KB`}
            />
          </Card>
        ))}
      </Flex>
      {canEdit && placingImage ? (
        <PlacementEditor
          key={placingImage.id}
          scope={scope}
          equipmentId={equipmentId}
          image={placingImage}
          locations={locations.data ?? []}
          onClose={() => setPlacing(null)}
        />
      ) : null}
      {modal}
    </Flex>
  );
}
