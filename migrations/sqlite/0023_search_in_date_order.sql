-- Search rows numbered in date order. Each article's row in `article_search_docs`, and so its
-- row in the trigram index, is numbered from its creation time (seconds since 1970, times 64,
-- plus one more for each earlier row of the same second), so the index gives its matches
-- newest first by itself: a search reads matches only until it has the page and the count it
-- needs, however common the text. Before, a page past the first few of a common text (a
-- phrase of two common words: 5,000 matches in 100,000 articles) sorted every match. A row
-- whose time changes is numbered again. (Seconds, not milliseconds: the index stores the gaps
-- between numbers, and milliseconds times 2^20 made it 35% larger and a bulk load 20%
-- slower.) Past 64 articles in one second, the next ones are numbered after all others: still
-- found, but read as if newest (their order is then exact only within the first 1,000
-- matches, which are sorted by time once read).
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
    SELECT CASE WHEN n < 64 THEN base + n END, id, status, category, created_at
    FROM (
        SELECT unixepoch(created_at) * 64 AS base,
            row_number() OVER (PARTITION BY unixepoch(created_at) ORDER BY created_at, id) - 1
                AS n,
            id, status, category, created_at
        FROM articles
    );
INSERT INTO article_search (rowid, search_text)
    SELECT d.id, a.search_text FROM article_search_docs d JOIN articles a ON a.id = d.article_id
    ORDER BY d.id;

-- The next number of the article's second. (A full second, or a time SQLite cannot read, gives
-- no number, and the row then takes the next free one after all others.)
CREATE TRIGGER article_search_insert AFTER INSERT ON articles BEGIN
    INSERT INTO article_search_docs (id, article_id, status, category, created_at)
        SELECT CASE WHEN s.n < 64 THEN s.base + s.n END,
            new.id, new.status, new.category, new.created_at
        FROM (SELECT t.base, COALESCE((SELECT MAX(d.id) + 1 - t.base FROM article_search_docs d
            WHERE d.id >= t.base AND d.id < t.base + 64), 0) AS n
            FROM (SELECT unixepoch(new.created_at) * 64 AS base) t) s;
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
        SELECT CASE WHEN s.n < 64 THEN s.base + s.n END,
            new.id, new.status, new.category, new.created_at
        FROM (SELECT t.base, COALESCE((SELECT MAX(d.id) + 1 - t.base FROM article_search_docs d
            WHERE d.id >= t.base AND d.id < t.base + 64), 0) AS n
            FROM (SELECT unixepoch(new.created_at) * 64 AS base) t) s;
    INSERT INTO article_search (rowid, search_text)
        VALUES ((SELECT id FROM article_search_docs WHERE article_id = new.id), new.search_text);
END;
CREATE TRIGGER article_search_delete AFTER DELETE ON articles BEGIN
    DELETE FROM article_search
        WHERE rowid = (SELECT id FROM article_search_docs WHERE article_id = old.id);
    DELETE FROM article_search_docs WHERE article_id = old.id;
END;
