//! What readers see: listings, search, an article, the sitemap's and digest's lists.

use kernel::Db;

use super::SqlContentStore;

#[async_trait::async_trait]
impl crate::store::ReadStore for SqlContentStore {
    #[tracing::instrument(target = "trace_only", name = "ContentStore.list_published", skip_all)]
    async fn list_published(
        &self,
        q: &crate::model::ListQuery,
    ) -> Result<(Vec<crate::store::CardRow>, i64), sqlx::Error> {
        debug_assert!(q.q.is_empty(), "searches go through `search`");
        self.page_and_count(q).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.search", skip_all)]
    async fn search(
        &self,
        query: &crate::search::Query,
        categories: &[crate::model::Category],
        limit: i64,
        window: i64,
    ) -> Result<crate::search::Found, sqlx::Error> {
        match &self.db {
            Db::Sqlite(pool) => {
                crate::store::sqlite::search(pool, query, categories, limit, window).await
            }
            Db::Postgres(pool) => {
                crate::store::postgres::search(pool, query, categories, limit, window).await
            }
        }
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.any_match", skip_all)]
    async fn any_match(
        &self,
        query: &crate::search::Query,
        categories: &[crate::model::Category],
        window: i64,
    ) -> Result<bool, sqlx::Error> {
        match &self.db {
            Db::Sqlite(pool) => {
                crate::store::sqlite::any_match(pool, query, categories, window).await
            }
            Db::Postgres(pool) => {
                crate::store::postgres::any_match(pool, query, categories, window).await
            }
        }
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.cards", skip_all)]
    async fn cards(&self, ids: &[String]) -> Result<Vec<crate::store::FoundRow>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql(&format!(
            "SELECT {}, COALESCE(a.body_text, '') AS body_text FROM articles a \
             WHERE a.status = 'published' AND a.id IN (",
            crate::store::CARD_COLUMNS
        ));
        q.bind_list(ids.to_vec());
        q.push(")");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.words_between", skip_all)]
    async fn words_between(
        &self,
        from: &str,
        to: &str,
        shortest: i64,
        longest: i64,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let mut q = self.db.sql("SELECT word FROM search_words WHERE word >= ");
        q.bind(from.to_string());
        q.push(" AND word < ").bind(to.to_string());
        q.push(" AND LENGTH(word) BETWEEN ").bind(shortest);
        q.push(" AND ").bind(longest);
        q.push(" ORDER BY word LIMIT ").bind(limit);
        q.scalars(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.count_published", skip_all)]
    async fn count_published(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT COUNT(*) FROM articles WHERE status = 'published'")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.find_published", skip_all)]
    async fn find_published(
        &self,
        slug_or_id: &str,
    ) -> Result<Option<crate::store::ArticleRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {}, a.content, a.content_html FROM articles a \
             WHERE a.status = 'published' AND (a.slug = ",
            crate::store::CARD_COLUMNS
        ));
        q.bind(slug_or_id.to_string());
        q.push(" OR a.id = ");
        q.bind(slug_or_id.to_string());
        q.push(") ORDER BY a.slug = ");
        q.bind(slug_or_id.to_string());
        q.push(" DESC LIMIT 1");
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.current_slug_for",
        skip_all
    )]
    async fn current_slug_for(&self, old_slug: &str) -> Result<Option<String>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT a.slug FROM article_slug_history h JOIN articles a ON a.id = h.article_id \
             WHERE a.status = 'published' AND h.slug = ",
        );
        q.bind(old_slug.to_string());
        q.scalar_optional(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.published_titles",
        skip_all
    )]
    async fn published_titles(
        &self,
        slugs: &[String],
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        if slugs.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql(
            "SELECT a.slug, a.title FROM articles a \
             WHERE a.status = 'published' AND a.slug IN (",
        );
        q.bind_list(slugs.to_vec());
        q.push(
            ") UNION ALL SELECT h.slug, a.title FROM article_slug_history h \
             JOIN articles a ON a.id = h.article_id \
             WHERE a.status = 'published' AND h.slug IN (",
        );
        q.bind_list(slugs.to_vec());
        q.push(")");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.published_slugs", skip_all)]
    async fn published_slugs(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, sqlx::Error> {
        self.db
            .sql(
                "SELECT slug, updated_at FROM articles WHERE status = 'published' \
             ORDER BY created_at DESC",
            )
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.published_authors",
        skip_all
    )]
    async fn published_authors(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, sqlx::Error> {
        self.db
            .sql(
                "SELECT author_id, MAX(updated_at) FROM articles \
                 WHERE status = 'published' AND author_id IS NOT NULL \
                 GROUP BY author_id ORDER BY author_id",
            )
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.published_between",
        skip_all
    )]
    async fn published_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<crate::store::WeekRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT slug, title, category, \
             COALESCE(NULLIF(subtitle, ''), excerpt) AS description, \
             first_published_at FROM articles \
             WHERE status = 'published' AND first_published_at >= ",
        );
        q.bind(from);
        q.push(" AND first_published_at < ");
        q.bind(to);
        q.push(" ORDER BY first_published_at DESC, id DESC");
        q.fetch_all(&self.db).await
    }
}
