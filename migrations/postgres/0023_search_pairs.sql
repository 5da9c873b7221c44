-- Phrases. A searched text with whitespace in it ("climate vote") spans tokens that stand side
-- by side in the article. Each article keeps a key for every pair of adjacent tokens in
-- `search_pairs` (GIN), so a phrase's candidates are the articles holding one of the pairs its
-- pieces can make, and only those are read and checked; before, a phrase of two common words
-- read and checked most articles through `pg_trgm`, whose trigrams never cross a word.
--
-- The key of the pair (a, b) of token numbers mixes them (two multiplications modulo the prime
-- 2^31 - 1, with b XORed in between, so that pairs of nearby numbers scatter) into one of
-- 65,521 negative integers: computed the same way by the app (`store::postgres::pair_key`)
-- when it inserts articles, and by this function for any other insert and whenever the search
-- text changes. Pairs share keys (about 500 pairs an article): that only adds candidates, which
-- the check then drops. Fewer keys keep the index cheap to build (100,000 bulk articles:
-- 65,521 keys 14 s and 212 MB, about a million keys 36 s).
ALTER TABLE articles ADD COLUMN search_pairs INTEGER[];

-- Pieces of words. The trigram index moves from the whole search text to `search_words`, the
-- article's distinct tokens (a sixth of the text's length in the bulk articles): a text
-- without whitespace lies inside one token, so "the article holds it" is exactly "its words
-- hold it", and a piece of a phrase must be in one of its words too. The index over the whole
-- text cost most of a bulk load's time (43 s to build over 100,000 articles).
ALTER TABLE articles ADD COLUMN search_words TEXT;

-- The search text is read back to check candidates; lz4 decompresses it faster than the
-- default (a phrase's check: 18 -> 12 ms in a measurement). Servers built without lz4 keep
-- the default.
DO $$
BEGIN
    ALTER TABLE articles ALTER COLUMN search_text SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    NULL;
END
$$;

-- The distinct tokens of `t`, in order, separated by single spaces.
CREATE FUNCTION agora_search_words(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_agg(w, ' ' ORDER BY w COLLATE "C"), '')
    FROM unnest(agora_search_tokens(t)) w
$$;

-- The keys of the pairs of adjacent tokens of `t`, once each, in order (its tokens must be
-- numbered already; each number is looked up by the unique index).
CREATE FUNCTION agora_search_pairs(t TEXT) RETURNS INTEGER[]
LANGUAGE sql STABLE SET enable_seqscan = off AS $$
    SELECT coalesce(array_agg(DISTINCT k ORDER BY k), '{}')
    FROM (
        SELECT (-1 - ((((lag(id) OVER (ORDER BY n) * 1597334677) % 2147483647 # id)
            * 1103515245) % 2147483647 % 65521))::INTEGER AS k
        FROM (
            SELECT w.n, (SELECT v.id FROM search_vocabulary v WHERE v.term = w.term)::BIGINT AS id
            FROM unnest(string_to_array(translate(t, E'\t\n\r\f\x0b', '     '), ' '))
                WITH ORDINALITY AS w(term, n)
            WHERE w.term <> ''
        ) tokens
    ) pairs
    WHERE k IS NOT NULL
$$;

CREATE OR REPLACE FUNCTION agora_article_search_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND NEW.search_terms IS NOT NULL AND NEW.search_pairs IS NOT NULL
        AND NEW.search_words IS NOT NULL THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text THEN
        RETURN NEW;
    END IF;
    NEW.search_terms := agora_search_term_ids(agora_search_tokens(NEW.search_text));
    NEW.search_pairs := agora_search_pairs(NEW.search_text);
    NEW.search_words := agora_search_words(NEW.search_text);
    RETURN NEW;
END
$$;

-- Articles already stored (their tokens are numbered).
UPDATE articles SET search_pairs = agora_search_pairs(search_text),
    search_words = agora_search_words(search_text);
ALTER TABLE articles ALTER COLUMN search_pairs SET NOT NULL;
ALTER TABLE articles ALTER COLUMN search_words SET NOT NULL;
DROP INDEX articles_search_trgm;
CREATE INDEX articles_search_words ON articles USING gin (search_words gin_trgm_ops);
CREATE INDEX articles_search_pairs ON articles USING gin (search_pairs);

-- Indexes a bulk load dropped, to build once it is done (`Db::defer_indexes`); any left here
-- (a load that stopped half way) are built when the migrations next run.
CREATE TABLE deferred_indexes (
    name       TEXT PRIMARY KEY,
    definition TEXT NOT NULL
);
