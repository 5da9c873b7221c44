import type { PageOf, Shown } from "./page-data";
import { samples } from "./page-data.sample";

/** The app's sample page of `kind` (page-data.sample.ts, written by the app's tests). */
export function sampleOf<K extends Shown["kind"]>(kind: K): PageOf<K> {
  const found = samples.find((s): s is PageOf<K> => s.kind === kind);
  if (!found) throw new Error(`the app's sample has no page of kind ${kind}`);
  return found;
}
