-- Phrases without reading articles. A phrase of two common words ("climate vote") had about
-- 6,000 candidates in 100,000 articles: sorting them by date read each one's wide row (9-18
-- ms), and the first 1,100 or so were then checked in their text (15 ms). Two changes:
--
-- 1. Narrow rows. Each article's pair keys move to `article_search_docs`, one row per article
--    with only what a search filters and sorts on, so the candidates are sorted from a few
--    pages (a tenth of the articles' table) and found a slice of time at a time.
--
-- 2. Exact keys. Two tokens separated by exactly one space, both among the first 256 numbered
--    (`store::postgres::search_terms` numbers each batch's 256 most frequent tokens first, so
--    these are the corpus's commonest words), get a key of their own: a * 256 + b, from 0 to
--    65,535. Any other pair keeps a shared key (negative, as in migration 0023). A phrase of
--    two pieces whose every pair of tokens has its own key is then found exactly by its keys,
--    and nothing is read to check it; the rarer pairs have few candidates to check.
--
-- The app computes the keys when it inserts articles (`store::postgres::pair_key`); this
-- function computes them the same way for any other write. A test holds the two together.
CREATE TABLE article_search_docs (
    article_id TEXT PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL,
    status     TEXT NOT NULL,
    category   TEXT NOT NULL,
    pairs      INTEGER[] NOT NULL
);

CREATE OR REPLACE FUNCTION agora_search_pairs(t TEXT) RETURNS INTEGER[]
LANGUAGE sql STABLE SET enable_seqscan = off AS $$
    SELECT coalesce(array_agg(DISTINCT k ORDER BY k), '{}')
    FROM (
        SELECT CASE WHEN one_space AND before < 256 AND id < 256 THEN (before * 256 + id)::INTEGER
            ELSE (-1 - ((((before * 1597334677) % 2147483647 # id) * 1103515245)
                % 2147483647 % 65521))::INTEGER END AS k
        FROM (
            SELECT lag(id) OVER (ORDER BY n) AS before, id, one_space
            FROM (
                SELECT w.n, w.m[1] = ' ' AS one_space,
                    (SELECT v.id FROM search_vocabulary v WHERE v.term = w.m[2])::BIGINT AS id
                FROM regexp_matches(t, '([\t\n\r\f\v ]*)([^\t\n\r\f\v ]+)', 'g')
                    WITH ORDINALITY AS w(m, n)
            ) tokens
        ) side_by_side
        WHERE before IS NOT NULL
    ) pairs
$$;

-- The app's keys come in `articles.search_pairs` and go on to the narrow row; the column
-- itself stays empty.
CREATE OR REPLACE FUNCTION agora_article_search_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.search_text IS DISTINCT FROM OLD.search_text THEN
        IF TG_OP = 'UPDATE' OR NEW.search_terms IS NULL OR NEW.search_pairs IS NULL
            OR NEW.search_words IS NULL THEN
            NEW.search_terms := agora_search_term_ids(agora_search_tokens(NEW.search_text));
            NEW.search_pairs := agora_search_pairs(NEW.search_text);
            NEW.search_words := agora_search_words(NEW.search_text);
        END IF;
        INSERT INTO article_search_docs (article_id, created_at, status, category, pairs)
            VALUES (NEW.id, NEW.created_at, NEW.status, NEW.category, NEW.search_pairs)
            ON CONFLICT (article_id) DO UPDATE SET created_at = excluded.created_at,
                status = excluded.status, category = excluded.category, pairs = excluded.pairs;
        NEW.search_pairs := NULL;
    ELSIF (NEW.created_at, NEW.status, NEW.category)
        IS DISTINCT FROM (OLD.created_at, OLD.status, OLD.category) THEN
        UPDATE article_search_docs SET created_at = NEW.created_at, status = NEW.status,
            category = NEW.category
            WHERE article_id = NEW.id;
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION agora_article_search_docs_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM article_search_docs WHERE article_id = OLD.id;
    RETURN OLD;
END
$$;

-- Articles already stored, their keys computed again the new way.
INSERT INTO article_search_docs (article_id, created_at, status, category, pairs)
    SELECT id, created_at, status, category, agora_search_pairs(search_text) FROM articles;
DROP INDEX articles_search_pairs;
ALTER TABLE articles ALTER COLUMN search_pairs DROP NOT NULL;
UPDATE articles SET search_pairs = NULL;

DROP TRIGGER articles_search_terms ON articles;
CREATE TRIGGER articles_search_terms
    BEFORE INSERT OR UPDATE OF search_text, created_at, status, category ON articles
    FOR EACH ROW EXECUTE FUNCTION agora_article_search_terms();
CREATE TRIGGER articles_search_docs_delete AFTER DELETE ON articles
    FOR EACH ROW EXECUTE FUNCTION agora_article_search_docs_delete();

CREATE INDEX article_search_docs_pairs ON article_search_docs USING gin (pairs);
-- A common phrase's newest matches are found a slice of time at a time (the two indexes
-- together), instead of reading all its candidates to sort them.
CREATE INDEX article_search_docs_created ON article_search_docs (created_at);
