// Public face of the content feature, used by src/app.
import "./content.css";

export { ArticleDetailPage } from "./components/ArticleDetailPage";
export { ArticlesPage } from "./components/ArticlesPage";
export { CategoryPage } from "./components/CategoryPage";
export { AuthorPage } from "./components/AuthorPage";
export {
  AUTHOR_PATH,
  authorQuery,
  type AuthorResult,
  type Contributor,
} from "./api/get-author";
export { HomePage } from "./components/HomePage";
export type { Article, ArticleList, ArticleResult } from "./api/types";
export { articleQuery } from "./api/get-article";
export { relatedQuery } from "./api/get-related";
export { responsesQuery } from "./api/responses";
export { homeArticlesQuery, newestArticlesQuery } from "./api/get-articles";
export { LostReaderHelp } from "./components/LostReaderHelp";
export { invalidatePublicArticles } from "./api/keys";
export { categoryOfSlug } from "./categories";
export { listingQuery } from "./api/use-article-listing";
export {
  categoryListing,
  normaliseListingQuery,
  parseLimit,
  parseListingQuery,
  sameListing,
  type ListingQuery,
} from "./listing-query";
