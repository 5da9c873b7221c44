import { useDocumentTitle } from "@/lib/document-title";
import type { ArticleList } from "@/features/content/api/types";
import { ExploreByCategory } from "./ExploreByCategory";
import { FromOurWriters } from "./FromOurWriters";
import { HomeHero } from "./HomeHero";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function HomePage({ initial }: { initial?: ArticleList }) {
  useDocumentTitle(PAGE_TITLES["/"], "site-first");
  return (
    <>
      <HomeHero />
      <FromOurWriters initial={initial} />
      <ExploreByCategory />
    </>
  );
}
