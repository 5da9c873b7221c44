import { useEffect, useRef, useState } from "react";
import fallbackCover from "@/assets/cover-fallback.svg";
import { coverSrcSet } from "@/lib/cover-sources";

interface CoverImageProps {
  src: string | null | undefined;
  alt: string;
  width: number;
  height: number;
  /** How wide the picture is drawn, for the browser's choice among the widths. */
  sizes: string;
  /** Above-the-fold images load eagerly; the rest lazily. */
  eager?: boolean;
  className?: string;
  /** What to show when there is no picture or it fails to load. */
  fallback?: string;
}

/**
 * A cover: an uploaded one as WebP at the width the screen needs (the
 * original stays the fallback), any other as it is; a local picture when
 * missing or broken.
 */
export function CoverImage({
  src,
  alt,
  width,
  height,
  sizes,
  eager,
  className,
  fallback = fallbackCover,
}: CoverImageProps) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);

  // An image that failed before hydration fired its error event before React
  // was listening; catch that case once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setBroken(true);
  }, [src]);

  const shown = !src || broken ? null : src;
  const image = (
    <img
      ref={ref}
      className={className}
      src={shown ?? fallback}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : "auto"}
      decoding="async"
      onError={() => setBroken(true)}
    />
  );
  const srcSet = coverSrcSet(shown);
  if (!srcSet) return image;
  return (
    <picture>
      <source type="image/webp" srcSet={srcSet} sizes={sizes} />
      {image}
    </picture>
  );
}
