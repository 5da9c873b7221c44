-- Search reads a narrow table of its own instead of a column of `articles`.
--
-- An article's word vector is about 2 KB, which PostgreSQL neither compresses (a vector does
-- not shrink by a quarter) nor keeps in the row: beside the Markdown, the HTML and the plain
-- text, every vector went to the TOAST table. A search walks the newest matches and reads each
-- vector, so each one cost a TOAST lookup on top of a wide row: 85 ms to find the newest 1,001
-- matches of a phrase of two common words at 100,000 articles (19,000 vectors read). Here
-- each row holds one published article's vectors and a few columns, and the vector stays in
-- the row (`STORAGE MAIN`, rows up to a page): the same search reads 21 ms.
--
-- `words` is the title (weight A), subtitle (B) and body text (D); `headings` the title and
-- subtitle alone, small, read to put a piece whose title holds a word asked for first.
-- Triggers keep the table to the published articles, recomputing the vectors only when a
-- column they read changes.
CREATE TABLE article_search (
    article_id TEXT PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    category TEXT NOT NULL,
    headings tsvector NOT NULL,
    words tsvector NOT NULL
) WITH (toast_tuple_target = 8160);
ALTER TABLE article_search ALTER COLUMN words SET STORAGE MAIN;
ALTER TABLE article_search ALTER COLUMN headings SET STORAGE MAIN;
-- How common each word is decides between walking the newest matches and reading the index
-- (see 0030): keep up to 10,000 words' frequencies.
ALTER TABLE article_search ALTER COLUMN words SET STATISTICS 1000;

CREATE FUNCTION agora_article_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status <> 'published' THEN
        DELETE FROM article_search WHERE article_id = NEW.id;
        RETURN NULL;
    END IF;
    INSERT INTO article_search (article_id, created_at, category, headings, words)
    SELECT NEW.id, NEW.created_at, NEW.category, h.v,
           h.v || setweight(to_tsvector('agora_english', COALESCE(NEW.body_text, '')), 'D')
    FROM (SELECT setweight(to_tsvector('agora_english', NEW.title), 'A')
                 || setweight(to_tsvector('agora_english', COALESCE(NEW.subtitle, '')), 'B') AS v) h
    ON CONFLICT (article_id) DO UPDATE SET
        created_at = EXCLUDED.created_at, category = EXCLUDED.category,
        headings = EXCLUDED.headings, words = EXCLUDED.words;
    RETURN NULL;
END
$$;

CREATE TRIGGER article_search_in AFTER INSERT ON articles
    FOR EACH ROW WHEN (NEW.status = 'published') EXECUTE FUNCTION agora_article_search();
CREATE TRIGGER article_search_changed AFTER UPDATE ON articles
    FOR EACH ROW WHEN (
        OLD.status IS DISTINCT FROM NEW.status
        OR (NEW.status = 'published' AND (
            OLD.title IS DISTINCT FROM NEW.title
            OR OLD.subtitle IS DISTINCT FROM NEW.subtitle
            OR OLD.body_text IS DISTINCT FROM NEW.body_text
            OR OLD.category IS DISTINCT FROM NEW.category
            OR OLD.created_at IS DISTINCT FROM NEW.created_at))
    ) EXECUTE FUNCTION agora_article_search();

INSERT INTO article_search (article_id, created_at, category, headings, words)
SELECT id, created_at, category,
       setweight(to_tsvector('agora_english', title), 'A')
       || setweight(to_tsvector('agora_english', COALESCE(subtitle, '')), 'B'),
       search_vector
FROM articles WHERE status = 'published' ORDER BY created_at;

CREATE INDEX article_search_newest ON article_search (created_at DESC, article_id DESC);
CREATE INDEX article_search_category ON article_search (category, created_at DESC, article_id DESC);
CREATE INDEX article_search_words ON article_search USING GIN (words);

ALTER TABLE articles DROP COLUMN search_vector;
