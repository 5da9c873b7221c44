-- Search rows numbered in date order. Each article's row in `article_search_docs`, and so its
-- row in the trigram index, is numbered from its creation time (milliseconds since 1970, times
-- 2^20, plus one more for each earlier row of the same millisecond), so the index gives its
-- matches newest first by itself: a search reads matches only until it has the page and the
-- count it needs, however common the text. Before, a page past the first few of a common
-- text (a phrase of two common words: 5,000 matches in 100,000 articles) sorted every match.
-- A row whose time changes is numbered again.
DROP TRIGGER article_search_insert;
DROP TRIGGER article_search_text;
DROP TRIGGER article_search_filters;
DROP TRIGGER article_search_delete;
DROP TABLE article_search;
DROP TABLE article_search_docs;

CREATE TABLE article_search_docs (
    id         INTEGER PRIMARY KEY,
    article_id TEXT NOT NULL UNIQUE,
    status     TEXT NOT NULL,
    category   TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE VIRTUAL TABLE article_search USING fts5(
    search_text, tokenize = 'trigram', content = '', contentless_delete = 1
);
INSERT INTO article_search (article_search, rank) VALUES ('hashsize', 67108864);
INSERT INTO article_search_docs (id, article_id, status, category, created_at)
    SELECT CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) * 1048576
        + row_number() OVER (
            PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER)
            ORDER BY created_at, id
        ) - 1,
        id, status, category, created_at
    FROM articles;
INSERT INTO article_search (rowid, search_text)
    SELECT d.id, a.search_text FROM article_search_docs d JOIN articles a ON a.id = d.article_id
    ORDER BY d.id;

-- The next number of the article's millisecond. (A time SQLite cannot read gives no number,
-- and the row then takes the next free one: found by the search all the same, out of order.)
CREATE TRIGGER article_search_insert AFTER INSERT ON articles BEGIN
    INSERT INTO article_search_docs (id, article_id, status, category, created_at)
        SELECT t.base + COALESCE((SELECT MAX(d.id) + 1 - t.base FROM article_search_docs d
            WHERE d.id >= t.base AND d.id < t.base + 1048576), 0),
            new.id, new.status, new.category, new.created_at
        FROM (SELECT CAST(round(unixepoch(new.created_at, 'subsec') * 1000) AS INTEGER)
            * 1048576 AS base) t;
    INSERT INTO article_search (rowid, search_text)
        VALUES ((SELECT id FROM article_search_docs WHERE article_id = new.id), new.search_text);
END;
CREATE TRIGGER article_search_text AFTER UPDATE OF search_text ON articles BEGIN
    DELETE FROM article_search
        WHERE rowid = (SELECT id FROM article_search_docs WHERE article_id = new.id);
    INSERT INTO article_search (rowid, search_text)
        VALUES ((SELECT id FROM article_search_docs WHERE article_id = new.id), new.search_text);
END;
CREATE TRIGGER article_search_filters AFTER UPDATE OF status, category ON articles BEGIN
    UPDATE article_search_docs SET status = new.status, category = new.category
        WHERE article_id = new.id;
END;
CREATE TRIGGER article_search_moved AFTER UPDATE OF created_at ON articles
WHEN new.created_at IS NOT old.created_at BEGIN
    DELETE FROM article_search
        WHERE rowid = (SELECT id FROM article_search_docs WHERE article_id = old.id);
    DELETE FROM article_search_docs WHERE article_id = old.id;
    INSERT INTO article_search_docs (id, article_id, status, category, created_at)
        SELECT t.base + COALESCE((SELECT MAX(d.id) + 1 - t.base FROM article_search_docs d
            WHERE d.id >= t.base AND d.id < t.base + 1048576), 0),
            new.id, new.status, new.category, new.created_at
        FROM (SELECT CAST(round(unixepoch(new.created_at, 'subsec') * 1000) AS INTEGER)
            * 1048576 AS base) t;
    INSERT INTO article_search (rowid, search_text)
        VALUES ((SELECT id FROM article_search_docs WHERE article_id = new.id), new.search_text);
END;
CREATE TRIGGER article_search_delete AFTER DELETE ON articles BEGIN
    DELETE FROM article_search
        WHERE rowid = (SELECT id FROM article_search_docs WHERE article_id = old.id);
    DELETE FROM article_search_docs WHERE article_id = old.id;
END;
