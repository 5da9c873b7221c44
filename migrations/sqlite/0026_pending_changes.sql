-- A writer's change to a live (published or scheduled) piece while review is required: it
-- waits here for a reviewer while the live version stays up. One per article; a later save
-- by the writer replaces it. Approving writes it as the article's next revision.
CREATE TABLE article_pending_changes (
    article_id   TEXT PRIMARY KEY NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    title        TEXT NOT NULL,
    subtitle     TEXT,
    content      TEXT NOT NULL,
    category     TEXT NOT NULL,
    cover_image  TEXT,
    featured     INTEGER NOT NULL,
    proposed_by  TEXT REFERENCES users (id) ON DELETE SET NULL,
    proposed_at  TEXT NOT NULL,
    -- The article's version the change was made on.
    base_version BIGINT NOT NULL
);
