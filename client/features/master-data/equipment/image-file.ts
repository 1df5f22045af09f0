/** What the server accepts (core/schemas/equipment-extras.schemas.ts): PNG or JPEG up to 5 MB. */
export const ACCEPTED_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Why a chosen file cannot be uploaded, or null when it can. */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a PNG or JPEG image';
  }
  if (file.size > MAX_IMAGE_BYTES) return 'The image is larger than 5 MB';
  return null;
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
