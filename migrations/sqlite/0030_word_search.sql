-- Word search on SQLite's own full-text index (FTS5), replacing the home-made substring
-- indexes of migrations 0019-0024 (trigram index over words, phrase index of hex terms, their
-- vocabulary and row numbering).
--
-- `article_fts` indexes the title, subtitle and body text of published articles only, with the
-- Porter stemmer over Unicode words without their accents ("Voting" and "votes" are "vote";
-- "Élection" is "election"). Its text is not copied: it is read from `articles` through
-- `article_search_source` when a result's excerpt is made. Each published article has a row
-- number in `article_search_docs` (the index's rowid), given when it goes live, so the index
-- reads its matches roughly newest first. The category is indexed too, so a search within a
-- category is answered by the index alone.
--
-- The body text is the article's Markdown as plain text, which only the app can derive: it is
-- NULL here for existing articles until the app writes it (`ContentStore::fill_body_text`,
-- run by `agora migrate` and at start), which re-indexes each one through the triggers.
DROP TRIGGER IF EXISTS article_search_insert;
DROP TRIGGER IF EXISTS article_search_text;
DROP TRIGGER IF EXISTS article_search_moved;
DROP TRIGGER IF EXISTS article_search_delete;
DROP TRIGGER IF EXISTS article_search_filters;
DROP TRIGGER IF EXISTS article_search_unwritten;
DROP TRIGGER IF EXISTS article_search_docs_delete;
DROP TRIGGER IF EXISTS article_search_numbering_insert;
DROP VIEW IF EXISTS article_search_numbering;
DROP TABLE IF EXISTS article_search;
DROP TABLE IF EXISTS article_phrases;
DROP TABLE IF EXISTS search_vocabulary;
DROP TABLE IF EXISTS article_search_docs;

ALTER TABLE articles DROP COLUMN search_text;
ALTER TABLE articles ADD COLUMN body_text TEXT;
CREATE INDEX articles_body_unwritten ON articles (id) WHERE body_text IS NULL;

CREATE TABLE article_search_docs (
    id         INTEGER PRIMARY KEY,
    article_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

CREATE VIEW article_search_source AS
    SELECT d.id AS doc, a.title, a.subtitle, a.body_text, a.category
    FROM article_search_docs d JOIN articles a ON a.id = d.article_id;

CREATE VIRTUAL TABLE article_fts USING fts5(
    title, subtitle, body_text, category,
    content = 'article_search_source', content_rowid = 'doc',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

INSERT INTO article_search_docs (article_id, created_at)
    SELECT id, created_at FROM articles WHERE status = 'published' ORDER BY created_at, id;
INSERT INTO article_fts (article_fts) VALUES ('rebuild');

-- The index follows each article in and out of `published` (removing an entry needs the
-- values it was indexed with: the old row's).
CREATE TRIGGER article_search_in AFTER INSERT ON articles WHEN new.status = 'published' BEGIN
    INSERT INTO article_search_docs (article_id, created_at) VALUES (new.id, new.created_at);
    INSERT INTO article_fts (rowid, title, subtitle, body_text, category)
        SELECT d.id, new.title, new.subtitle, new.body_text, new.category
        FROM article_search_docs d WHERE d.article_id = new.id;
END;

CREATE TRIGGER article_search_changed
AFTER UPDATE OF title, subtitle, body_text, category, status, created_at ON articles
WHEN old.status = 'published' OR new.status = 'published' BEGIN
    INSERT INTO article_fts (article_fts, rowid, title, subtitle, body_text, category)
        SELECT 'delete', d.id, old.title, old.subtitle, old.body_text, old.category
        FROM article_search_docs d WHERE d.article_id = old.id AND old.status = 'published';
    DELETE FROM article_search_docs WHERE article_id = old.id AND new.status <> 'published';
    INSERT INTO article_search_docs (article_id, created_at)
        SELECT new.id, new.created_at WHERE old.status <> 'published';
    UPDATE article_search_docs SET created_at = new.created_at
        WHERE article_id = new.id AND created_at IS NOT new.created_at;
    INSERT INTO article_fts (rowid, title, subtitle, body_text, category)
        SELECT d.id, new.title, new.subtitle, new.body_text, new.category
        FROM article_search_docs d WHERE d.article_id = new.id AND new.status = 'published';
END;

CREATE TRIGGER article_search_out BEFORE DELETE ON articles WHEN old.status = 'published' BEGIN
    INSERT INTO article_fts (article_fts, rowid, title, subtitle, body_text, category)
        SELECT 'delete', d.id, old.title, old.subtitle, old.body_text, old.category
        FROM article_search_docs d WHERE d.article_id = old.id;
    DELETE FROM article_search_docs WHERE article_id = old.id;
END;

-- Words the articles use, as readers would type them (lower case), for "Did you mean ...?":
-- written by the app with each save (it cuts the text into words).
CREATE TABLE search_words (
    word TEXT PRIMARY KEY
) WITHOUT ROWID;
