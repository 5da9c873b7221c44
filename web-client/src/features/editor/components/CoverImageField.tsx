import { useMutation } from "@tanstack/react-query";
import { useRef, useState, type ChangeEvent } from "react";
import fallbackCover from "@/assets/cover-fallback.svg";
import { useToast } from "@/components/toast";
import { ApiFailure } from "@/lib/api-client";
import { useSession } from "@/lib/session";
import { uploadCover } from "@/features/editor/api/editor-api";
import { coverFileProblem, UPLOAD_FAILED } from "@/features/editor/cover-file";

interface Props {
  value: string;
  onChange: (url: string) => void;
}

/** A cover image: uploaded here or pasted as a URL, with a preview. */
export function CoverImageField({ value, onChange }: Props) {
  const notify = useToast();
  const { expire } = useSession();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: uploadCover,
    onSuccess: (cover) => onChange(cover.url),
    onError: (cause) => {
      if (cause instanceof ApiFailure && cause.signedOut) expire();
      const message = cause instanceof ApiFailure ? cause.message : "";
      notify({
        title: "Upload failed",
        description: message || UPLOAD_FAILED,
        variant: "destructive",
      });
    },
    onSettled: () => {
      if (fileInput.current) fileInput.current.value = "";
    },
  });
  const uploading = upload.isPending;

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = coverFileProblem(file);
    if (problem) {
      notify({
        title: "Invalid file",
        description: problem,
        variant: "destructive",
      });
      event.target.value = "";
      return;
    }
    upload.mutate(file);
  }

  const url = value.trim();
  // An uploaded image is ours (`/media/…`): said as such, not shown as a pasted address.
  const uploaded = url.startsWith("/media/");
  return (
    <fieldset className="editor-fieldset">
      <legend>Cover image</legend>
      <div className="field">
        <label htmlFor="editor-cover-file">Upload an image</label>
        <input
          ref={fileInput}
          id="editor-cover-file"
          type="file"
          accept="image/*"
          aria-describedby="editor-cover-hint"
          disabled={uploading}
          onChange={onFile}
        />
        <p id="editor-cover-hint" className="field-hint">
          JPG, PNG, GIF or WebP, up to 5MB.
        </p>
        {uploaded ? (
          <p className="field-hint">The uploaded image is the cover.</p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="editor-cover-url">Or paste an image URL</label>
        <input
          id="editor-cover-url"
          type="text"
          inputMode="url"
          placeholder="https://"
          value={uploaded ? "" : value}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      {uploading ? (
        <p className="status-text" role="status">
          Uploading image...
        </p>
      ) : null}
      {url ? (
        <div className="editor-cover-preview">
          <CoverPreview key={url} src={url} />
          <button
            type="button"
            className="btn btn-quiet btn-sm"
            onClick={() => onChange("")}
          >
            Remove image
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** The chosen image, or the local fallback when it does not load. */
function CoverPreview({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <img
      src={broken ? fallbackCover : src}
      alt="Cover image preview"
      width={320}
      height={180}
      onError={() => setBroken(true)}
    />
  );
}
