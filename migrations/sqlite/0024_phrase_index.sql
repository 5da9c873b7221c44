-- Search by words, written by the app. Two changes, measured on 100,000 bulk articles:
--
-- 1. Phrases. A searched text with spaces in it ("climate vote") was found by the trigram
--    index alone: a phrase of two common words reads the positions of ten trigrams, each in
--    most articles, through the newest fifth of them before it has its 1,001 matches (20-40
--    ms). `article_phrases` holds each article's tokens (its text cut at whitespace) as a
--    sequence in which two tokens separated by exactly one space stand side by side, so a
--    phrase is found by the positions of two terms (5-10 ms).
--
--    For each token, "f" and its bytes in hex (the token read forwards), then "r" and its
--    bytes reversed, in hex (read backwards, so that "ends with" becomes "starts with");
--    between two tokens whose separator is not one space, "b". "climate vote" is then the
--    term "r" + hex("etamilc") followed by "f" + hex("vote"), and "mate vot" is a term
--    starting with "r" + hex("etam") followed by one starting with "f" + hex("vot"): the app
--    looks those terms up in `search_vocabulary` (every term written) and asks for the
--    phrases they make (`store::sqlite::phrase_query`). Hex keeps every term one token to
--    FTS5's `ascii` tokenizer whatever the text holds.
--
-- 2. Pieces of words. The trigram index (`article_search`) now holds each article's distinct
--    tokens, once each, instead of its whole text: a searched text without whitespace lies
--    inside one token, so "the article holds it" is exactly "one of its words holds it". The
--    index over the whole text cost most of a bulk load (30 s of 50); over the words (a sixth
--    of the text in the bulk articles) it costs a sixth. A text with whitespace that the
--    phrase index cannot answer is found by its pieces there, then checked in the text.
--
-- Triggers cannot cut a text into tokens, so the app writes both indexes' rows
-- (`store::sqlite::write_search_rows`): a row whose text or number changes is marked unwritten
-- (`indexed` = 0) and written in the same transaction, and any the migrations leave are written
-- before the app serves (`ContentStore::catch_up_search`). Rows keep their numbers in date
-- order (migration 0023).
CREATE VIRTUAL TABLE article_phrases USING fts5(
    stream, tokenize = 'ascii', content = '', contentless_delete = 1
);
INSERT INTO article_phrases (article_phrases, rank) VALUES ('hashsize', 67108864);

CREATE TABLE search_vocabulary (
    term TEXT PRIMARY KEY
) WITHOUT ROWID;

ALTER TABLE article_search_docs ADD COLUMN indexed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX article_search_docs_unindexed ON article_search_docs (id) WHERE indexed = 0;
INSERT INTO article_search (article_search) VALUES ('delete-all');

DROP TRIGGER article_search_insert;
DROP TRIGGER article_search_text;
DROP TRIGGER article_search_moved;
DROP TRIGGER article_search_delete;

-- An article's row, numbered: the next number of its second (as in migration 0023), and
-- unwritten. Inserted through this view by the triggers below, which number it the same way.
CREATE VIEW article_search_numbering AS
    SELECT article_id, status, category, created_at FROM article_search_docs;
CREATE TRIGGER article_search_numbering_insert INSTEAD OF INSERT ON article_search_numbering
BEGIN
    INSERT INTO article_search_docs (id, article_id, status, category, created_at)
        SELECT CASE WHEN s.n < 64 THEN s.base + s.n END,
            new.article_id, new.status, new.category, new.created_at
        FROM (SELECT t.base, COALESCE((SELECT MAX(d.id) + 1 - t.base FROM article_search_docs d
            WHERE d.id >= t.base AND d.id < t.base + 64), 0) AS n
            FROM (SELECT unixepoch(new.created_at) * 64 AS base) t) s;
END;

-- An article's rows in the indexes go with its row's `indexed` mark and with the row itself.
CREATE TRIGGER article_search_unwritten AFTER UPDATE OF indexed ON article_search_docs
WHEN old.indexed = 1 AND new.indexed = 0 BEGIN
    DELETE FROM article_search WHERE rowid = old.id;
    DELETE FROM article_phrases WHERE rowid = old.id;
END;
CREATE TRIGGER article_search_docs_delete AFTER DELETE ON article_search_docs BEGIN
    DELETE FROM article_search WHERE rowid = old.id;
    DELETE FROM article_phrases WHERE rowid = old.id;
END;

CREATE TRIGGER article_search_insert AFTER INSERT ON articles BEGIN
    INSERT INTO article_search_numbering (article_id, status, category, created_at)
        VALUES (new.id, new.status, new.category, new.created_at);
END;
CREATE TRIGGER article_search_text AFTER UPDATE OF search_text ON articles
WHEN new.search_text IS NOT old.search_text BEGIN
    UPDATE article_search_docs SET indexed = 0 WHERE article_id = new.id;
END;
CREATE TRIGGER article_search_moved AFTER UPDATE OF created_at ON articles
WHEN new.created_at IS NOT old.created_at BEGIN
    DELETE FROM article_search_docs WHERE article_id = old.id;
    INSERT INTO article_search_numbering (article_id, status, category, created_at)
        VALUES (new.id, new.status, new.category, new.created_at);
END;
CREATE TRIGGER article_search_delete AFTER DELETE ON articles BEGIN
    DELETE FROM article_search_docs WHERE article_id = old.id;
END;
