/** Spec §5/§9: cover images are images of at most 5 MB. */
export const MAX_COVER_BYTES = 5 * 1024 * 1024;

export const NOT_AN_IMAGE = "Please upload an image file (JPG, PNG, etc.)";
export const TOO_LARGE = "Please upload an image smaller than 5MB";
export const UPLOAD_FAILED = "Failed to upload image. Please try again.";

/** Why a chosen file cannot be a cover, checked before uploading; `null` if it can. */
export function coverFileProblem(file: {
  type: string;
  size: number;
}): string | null {
  if (!file.type.startsWith("image/")) return NOT_AN_IMAGE;
  if (file.size > MAX_COVER_BYTES) return TOO_LARGE;
  return null;
}
