import { useState } from "react";
import { Link } from "wouter";
import type {
  AuthorBox as Author,
  Related,
} from "@/features/content/api/get-related";
import type { ReaderArticle } from "@/features/content/api/types";
import { useHydrated } from "@/lib/hydrated";
import { useSite } from "@/lib/site";
import { ArticleGrid } from "./ArticleGrid";

/** Share links that need no third-party script: each is a plain address. */
function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: "WhatsApp", href: `https://wa.me/?text=${t}%20${u}` },
    { name: "X", href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    {
      name: "Facebook",
      href: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    },
    {
      name: "LinkedIn",
      href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    },
    { name: "Email", href: `mailto:?subject=${t}&body=${u}` },
  ];
}

export function ShareLinks({ article }: { article: ReaderArticle }) {
  const { url: site } = useSite();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const url = `${site.replace(/\/$/, "")}/article/${article.slug}`;
  const canCopy =
    hydrated && typeof navigator !== "undefined" && !!navigator.clipboard;
  return (
    <section className="share" aria-labelledby="share-title">
      <h2 id="share-title" className="share-title">
        Share this article
      </h2>
      <ul className="share-list">
        {shareLinks(url, article.title).map((link) => (
          <li key={link.name}>
            <a
              className="share-link"
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {link.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
        {canCopy ? (
          <li>
            <button
              type="button"
              className="share-link"
              onClick={() => {
                void navigator.clipboard.writeText(url).then(
                  () => setCopied(true),
                  () => setCopied(false),
                );
              }}
            >
              {copied ? "Link copied" : "Copy link"}
            </button>
          </li>
        ) : null}
      </ul>
      <p className="sr-only" role="status">
        {copied ? "Link copied" : ""}
      </p>
    </section>
  );
}

function AuthorCard({ author }: { author: Author }) {
  return (
    <section className="author-box" aria-labelledby="author-title">
      <p className="author-eyebrow">Written by</p>
      <h2 id="author-title" className="author-name">
        {author.slug ? (
          <Link href={`/author/${encodeURIComponent(author.slug)}`}>
            {author.name}
          </Link>
        ) : (
          author.name
        )}
      </h2>
      {author.role ? <p className="author-role">{author.role}</p> : null}
      {author.articles.length > 0 ? (
        <>
          <h3 className="author-more">More from {author.name}</h3>
          <ul className="author-articles">
            {author.articles.map((a) => (
              <li key={a.id}>
                <Link href={`/article/${a.slug}`}>{a.title}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {author.slug ? (
        <p className="author-all">
          <Link href={`/author/${encodeURIComponent(author.slug)}`}>
            {`Every article by ${author.name}`}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** After the article: share it, who wrote it, and three more to read. */
export function ArticleFooter({
  article,
  related,
}: {
  article: ReaderArticle;
  related: Related | null;
}) {
  return (
    <footer className="article-footer">
      <div className="container narrow">
        <ShareLinks article={article} />
        {related?.author ? <AuthorCard author={related.author} /> : null}
      </div>
      {related && related.read_next.length > 0 ? (
        <section
          className="container read-next"
          aria-labelledby="read-next-title"
        >
          <h2 id="read-next-title" className="read-next-title">
            Read next
          </h2>
          <ArticleGrid items={related.read_next} />
        </section>
      ) : null}
    </footer>
  );
}
