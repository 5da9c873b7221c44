import { useDocumentTitle } from "@/lib/document-title";
import { ExploreByCategory } from "./ExploreByCategory";
import { FromOurWriters } from "./FromOurWriters";
import { HomeHero } from "./HomeHero";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function HomePage() {
  useDocumentTitle(PAGE_TITLES["/"], "site-first");
  return (
    <>
      <HomeHero />
      <FromOurWriters />
      <ExploreByCategory />
    </>
  );
}
