// Public face of the content feature, used by src/app.
import "./content.css";

export { ArticleDetailPage } from "./components/ArticleDetailPage";
export { ArticlesPage } from "./components/ArticlesPage";
export { HomePage } from "./components/HomePage";
export type { Article, ArticleList, ArticleResult } from "./api/types";
export {
  normaliseListingQuery,
  parseListingQuery,
  sameListing,
} from "./listing-query";
