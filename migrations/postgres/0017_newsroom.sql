-- The newsroom (review, scheduling, revisions, no lost work).
-- `status` stays what readers may see (draft or published); `stage` is where an unpublished
-- piece stands: being written, waiting for review, or scheduled to go out at `publish_at`.
ALTER TABLE articles ADD COLUMN stage TEXT NOT NULL DEFAULT 'draft'
    CHECK (stage IN ('draft', 'in_review', 'scheduled', 'published'));
UPDATE articles SET stage = status;
ALTER TABLE articles ADD COLUMN publish_at TIMESTAMPTZ;
-- Every saved change moves the version on: an edit based on an older one is refused.
ALTER TABLE articles ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
ALTER TABLE articles ADD COLUMN updated_by TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE articles ADD COLUMN submitted_at TIMESTAMPTZ;
-- The reviewer's last request for changes, shown to the writer until the piece is resubmitted.
ALTER TABLE articles ADD COLUMN review_note TEXT;
ALTER TABLE articles ADD COLUMN review_note_by TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE articles ADD COLUMN review_note_at TIMESTAMPTZ;
CREATE INDEX articles_due ON articles (stage, publish_at);

-- Every saved version of an article's text.
CREATE TABLE article_revisions (
    article_id  TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    number      BIGINT NOT NULL,
    title       TEXT NOT NULL,
    subtitle    TEXT,
    content     TEXT NOT NULL,
    cover_image TEXT,
    saved_by    TEXT REFERENCES users (id) ON DELETE SET NULL,
    saved_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (article_id, number)
);
INSERT INTO article_revisions (article_id, number, title, subtitle, content, cover_image, saved_by, saved_at)
    SELECT id, 1, title, subtitle, content, cover_image, author_id, updated_at FROM articles;

-- Who moved an article from which stage to which, and when.
CREATE TABLE article_events (
    id         TEXT PRIMARY KEY NOT NULL,
    article_id TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    actor_id   TEXT REFERENCES users (id) ON DELETE SET NULL,
    action     TEXT NOT NULL,
    from_stage TEXT,
    to_stage   TEXT NOT NULL,
    note       TEXT,
    publish_at TIMESTAMPTZ,
    at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX article_events_article ON article_events (article_id, at);

-- Staff email for newsroom notices, with an opt-out.
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN notify_email BOOLEAN NOT NULL DEFAULT TRUE;
