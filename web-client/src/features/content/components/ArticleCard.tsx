import { Link } from "wouter";
import { Badge } from "@/components/Badge";
import { formatShortDate } from "@/lib/dates";
import { useDisplayTimeZone } from "@/lib/time-zone";
import type { ArticleSummary } from "@/features/content/api/types";
import { CoverImage } from "@/components/CoverImage";

interface ArticleCardProps {
  article: ArticleSummary;
  /** The first card loads its cover eagerly (and first): it is above the fold on a phone. */
  eager?: boolean;
  headingLevel?: "h2" | "h3";
}

export function ArticleCard({
  article,
  eager,
  headingLevel = "h3",
}: ArticleCardProps) {
  const zone = useDisplayTimeZone();
  const Heading = headingLevel;
  return (
    <article className={article.featured ? "card card-featured" : "card"}>
      <div className="card-media">
        <CoverImage
          key={article.cover_image ?? ""}
          src={article.cover_image}
          alt=""
          width={640}
          height={360}
          sizes="(min-width: 1040px) 380px, (min-width: 700px) 50vw, 100vw"
          eager={eager}
        />
        <div className="card-badges">
          <Badge tone="accent">{article.category}</Badge>
          {article.featured ? <Badge tone="gold">Featured</Badge> : null}
        </div>
      </div>
      <div className="card-body">
        <Heading className="card-title">
          {/* The link's ::after covers the whole card, so all of it is clickable. */}
          <Link
            href={`/article/${encodeURIComponent(article.slug)}`}
            className="card-link"
          >
            {article.title}
          </Link>
        </Heading>
        {article.subtitle ? (
          <p className="card-subtitle">{article.subtitle}</p>
        ) : null}
        {article.highlight ? (
          // A search result: its text around the matched words, each marked.
          <p className="card-excerpt card-highlight">
            {article.highlight.map((part, i) =>
              part.marked ? <mark key={i}>{part.text}</mark> : part.text,
            )}
          </p>
        ) : (
          <p className="card-excerpt">{article.excerpt}</p>
        )}
        <p className="card-meta">
          {/* Each separator travels with the item before it, so a wrapped line
              never starts with a stray dot. */}
          <span>
            <span>{article.author_name || "Unknown Author"}</span>
            <span aria-hidden="true"> ·</span>
          </span>
          <span>
            <time dateTime={article.created_at}>
              {formatShortDate(article.created_at, zone)}
            </time>
            <span aria-hidden="true"> ·</span>
          </span>
          <span>{`${article.read_time} read`}</span>
        </p>
      </div>
    </article>
  );
}
