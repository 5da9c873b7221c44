import { useDocumentTitle } from "@/lib/document-title";
import { useSite } from "@/lib/site";
import type { ArticleList } from "@/features/content/api/types";
import { ExploreByCategory } from "./ExploreByCategory";
import { FromOurWriters } from "./FromOurWriters";
import { HomeHero } from "./HomeHero";

export function HomePage({ initial }: { initial?: ArticleList }) {
  useDocumentTitle(useSite().name);
  return (
    <>
      <HomeHero />
      <FromOurWriters initial={initial} />
      <ExploreByCategory />
    </>
  );
}
