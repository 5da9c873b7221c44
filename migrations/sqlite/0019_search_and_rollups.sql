-- Search at scale: a trigram index over each article's search text (title, text, excerpt, in
-- lower case), so a search for any piece of text of three characters or more — the product's
-- semantics: case-insensitive, anywhere in the title or the text — is answered from the index.
-- FTS5 rows are found by rowid; articles have no stable integer key, so a table of their own
-- gives each article one.
CREATE TABLE article_search_ids (
    id         INTEGER PRIMARY KEY,
    article_id TEXT NOT NULL UNIQUE
);
-- detail=none: the index says which rows hold each trigram, and each candidate is then
-- checked against the pattern itself (LIKE), so it stays small and matches exactly.
CREATE VIRTUAL TABLE articles_search USING fts5(search_text, tokenize = 'trigram', detail = 'none');
INSERT INTO article_search_ids (article_id) SELECT id FROM articles;
INSERT INTO articles_search (rowid, search_text)
    SELECT m.id, a.search_text FROM article_search_ids m JOIN articles a ON a.id = m.article_id;
CREATE TRIGGER articles_search_insert AFTER INSERT ON articles BEGIN
    INSERT INTO article_search_ids (article_id) VALUES (new.id);
    INSERT INTO articles_search (rowid, search_text)
        VALUES ((SELECT id FROM article_search_ids WHERE article_id = new.id), new.search_text);
END;
CREATE TRIGGER articles_search_update AFTER UPDATE OF search_text ON articles BEGIN
    UPDATE articles_search SET search_text = new.search_text
        WHERE rowid = (SELECT id FROM article_search_ids WHERE article_id = new.id);
END;
CREATE TRIGGER articles_search_delete AFTER DELETE ON articles BEGIN
    DELETE FROM articles_search
        WHERE rowid = (SELECT id FROM article_search_ids WHERE article_id = old.id);
    DELETE FROM article_search_ids WHERE article_id = old.id;
END;
CREATE INDEX articles_public_category ON articles (status, category, created_at DESC, id DESC);

-- Page views rolled up as they are written, so the admin's figures read a few thousand rows
-- instead of millions: views per quarter hour (every time zone's midnight falls on one), and
-- views per path and UTC day (the day's Unix number). Both keyed by Unix time, the same on
-- both engines.
CREATE TABLE page_view_quarters (
    start BIGINT PRIMARY KEY,
    views BIGINT NOT NULL
);
CREATE TABLE page_view_path_days (
    day   BIGINT NOT NULL,
    path  TEXT NOT NULL,
    views BIGINT NOT NULL,
    PRIMARY KEY (day, path)
);
INSERT INTO page_view_quarters (start, views)
    SELECT (CAST(strftime('%s', viewed_at) AS INTEGER) / 900) * 900, COUNT(*)
    FROM page_views GROUP BY 1;
INSERT INTO page_view_path_days (day, path, views)
    SELECT CAST(strftime('%s', viewed_at) AS INTEGER) / 86400, path, COUNT(*)
    FROM page_views GROUP BY 1, 2;
