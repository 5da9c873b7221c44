-- Search by words. An article's search text is cut into tokens at ASCII whitespace (space,
-- tab, line feed, carriage return, form feed, vertical tab); every distinct token ever seen
-- has a number in `search_vocabulary`, and each article keeps the numbers of its tokens in
-- `search_terms`. A searched text holding none of those six characters lies inside one token
-- wherever it occurs, so "the article holds q" is exactly "one of its tokens holds q": the
-- search finds the few vocabulary tokens holding q (a trigram index over short strings),
-- then the articles holding one of them (a GIN index over the numbers), without reading any
-- article's text. The app computes `search_terms` when it inserts articles (the tokenizer
-- below and `store::postgres::tokens` must agree; a test holds them together); the trigger
-- computes them for any other insert and whenever the search text changes.
CREATE TABLE search_vocabulary (
    id   INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    term TEXT NOT NULL UNIQUE
);
CREATE INDEX search_vocabulary_trgm ON search_vocabulary USING gin (term gin_trgm_ops);

ALTER TABLE articles ADD COLUMN search_terms INTEGER[];

CREATE FUNCTION agora_search_tokens(t TEXT) RETURNS TEXT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT w), '{}')
    FROM unnest(string_to_array(translate(t, E'\t\n\r\f\x0b', '     '), ' ')) w
    WHERE w <> ''
$$;

-- The numbers of `tokens`, numbering the new ones. One statement inserts in one order, so two
-- writers numbering overlapping new tokens wait for each other instead of deadlocking. Each
-- number is looked up by the unique index (never a scan of the vocabulary: a plan made while
-- it was small, kept by the session, would scan all of it once it has grown).
CREATE FUNCTION agora_search_term_ids(tokens TEXT[]) RETURNS INTEGER[]
LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
    INSERT INTO search_vocabulary (term)
        SELECT w FROM unnest(tokens) w ORDER BY w ON CONFLICT (term) DO NOTHING;
    RETURN ARRAY(
        SELECT (SELECT v.id FROM search_vocabulary v WHERE v.term = w) AS id
        FROM unnest(tokens) w ORDER BY id
    );
END
$$;

CREATE FUNCTION agora_article_search_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND NEW.search_terms IS NOT NULL THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text THEN
        RETURN NEW;
    END IF;
    NEW.search_terms := agora_search_term_ids(agora_search_tokens(NEW.search_text));
    RETURN NEW;
END
$$;

CREATE TRIGGER articles_search_terms BEFORE INSERT OR UPDATE OF search_text ON articles
    FOR EACH ROW EXECUTE FUNCTION agora_article_search_terms();

-- Articles already stored.
UPDATE articles SET search_terms = agora_search_term_ids(agora_search_tokens(search_text));
ALTER TABLE articles ALTER COLUMN search_terms SET NOT NULL;
CREATE INDEX articles_search_terms ON articles USING gin (search_terms);
