import { useEffect, useRef, useState } from "react";
import fallbackCover from "@/assets/cover-fallback.svg";

interface CoverImageProps {
  src: string | null | undefined;
  alt: string;
  width: number;
  height: number;
  /** Above-the-fold images load eagerly; the rest lazily. */
  eager?: boolean;
  className?: string;
}

/** An article cover that falls back to a local image when missing or broken. */
export function CoverImage({
  src,
  alt,
  width,
  height,
  eager,
  className,
}: CoverImageProps) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);

  // An image that failed before hydration fired its error event before React
  // was listening; catch that case once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setBroken(true);
  }, [src]);

  return (
    <img
      ref={ref}
      className={className}
      src={!src || broken ? fallbackCover : src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : "auto"}
      decoding="async"
      onError={() => setBroken(true)}
    />
  );
}
