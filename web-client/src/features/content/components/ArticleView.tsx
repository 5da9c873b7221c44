import { Link } from "wouter";
import { Badge } from "@/components/Badge";
import { formatLongDateTime } from "@/lib/dates";
import { useDisplayTimeZone } from "@/lib/time-zone";
import type { ReaderArticle } from "@/features/content/api/types";
import { CoverImage } from "@/components/CoverImage";
import { categoryPage } from "@/features/content/categories";

export function ArticleView({ article }: { article: ReaderArticle }) {
  const zone = useDisplayTimeZone();
  return (
    <article className="article">
      <header className="container narrow article-header">
        <Link href="/articles" className="back-link">
          ← All articles
        </Link>
        <div className="article-badges">
          <Link
            href={categoryPage(article.category).path}
            className="badge badge-accent badge-link"
          >
            {article.category}
          </Link>
          {article.featured ? <Badge tone="gold">Featured</Badge> : null}
        </div>
        <h1 className="article-title">{article.title}</h1>
        {article.subtitle ? (
          <p className="article-subtitle">{article.subtitle}</p>
        ) : null}
        <p className="article-meta">
          <span>
            By{" "}
            {article.author_slug ? (
              <Link
                href={`/author/${encodeURIComponent(article.author_slug)}`}
                className="article-author"
              >
                {article.author_name || "Unknown Author"}
              </Link>
            ) : (
              <span className="article-author">
                {article.author_name || "Unknown Author"}
              </span>
            )}
          </span>
          <time dateTime={article.created_at}>
            {formatLongDateTime(article.created_at, zone)}
          </time>
          <span>{`${article.read_time} read`}</span>
        </p>
      </header>
      {article.cover_image ? (
        <figure className="container article-cover">
          <CoverImage
            key={article.cover_image}
            src={article.cover_image}
            alt={`Cover image for “${article.title}”`}
            width={1200}
            height={675}
            sizes="(min-width: 1080px) 1040px, 100vw"
            eager
          />
        </figure>
      ) : null}
      {/* content_html is rendered and sanitised by the server from the markdown source;
          a server-rendered page's is read back from here before hydrating. */}
      <div
        className="container narrow prose"
        data-agora-body=""
        dangerouslySetInnerHTML={{ __html: article.content_html }}
      />
    </article>
  );
}
