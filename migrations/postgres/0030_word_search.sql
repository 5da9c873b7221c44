-- Word search on PostgreSQL's own full-text search, replacing the home-made substring search
-- of migrations 0019-0025 (token numbers, pair keys, trigram indexes over words, and the
-- indexes a bulk load dropped and built again).
--
-- `search_vector` holds the title (weight A), subtitle (B) and body text (D) of each article
-- as English word stems without accents, kept by PostgreSQL itself; a GIN index over the
-- published ones answers `@@` queries. Accents are removed by the `unaccent` dictionary before
-- stemming, through a configuration of our own (`agora_english`): with it, `to_tsvector` stays
-- immutable, as a generated column needs.
--
-- The body text is the article's Markdown as plain text, which only the app can derive: it is
-- NULL here for existing articles until the app writes it (`ContentStore::fill_body_text`,
-- run by `agora migrate` and at start).
DROP TRIGGER IF EXISTS articles_search_terms ON articles;
DROP TRIGGER IF EXISTS articles_search_docs_delete ON articles;
DROP FUNCTION IF EXISTS agora_article_search_terms();
DROP FUNCTION IF EXISTS agora_article_search_docs_delete();
DROP FUNCTION IF EXISTS agora_search_pairs(TEXT);
DROP FUNCTION IF EXISTS agora_search_words(TEXT);
DROP FUNCTION IF EXISTS agora_search_term_ids(TEXT[]);
DROP FUNCTION IF EXISTS agora_search_tokens(TEXT);
DROP TABLE IF EXISTS article_search_docs;
DROP TABLE IF EXISTS search_vocabulary;
DROP TABLE IF EXISTS deferred_indexes;
ALTER TABLE articles
    DROP COLUMN IF EXISTS search_terms,
    DROP COLUMN IF EXISTS search_pairs,
    DROP COLUMN IF EXISTS search_words,
    DROP COLUMN IF EXISTS search_text;
DROP EXTENSION IF EXISTS pg_trgm;

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH CONFIGURATION agora_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION agora_english
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;

ALTER TABLE articles ADD COLUMN body_text TEXT;
ALTER TABLE articles ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('agora_english', COALESCE(title, '')), 'A')
    || setweight(to_tsvector('agora_english', COALESCE(subtitle, '')), 'B')
    || setweight(to_tsvector('agora_english', COALESCE(body_text, '')), 'D')
) STORED;
CREATE INDEX articles_search ON articles USING GIN (search_vector) WHERE status = 'published';
-- A search asks for the newest matches: the planner walks the newest articles for a common
-- word and reads the index for a rare one, and can only tell which from how often each word
-- occurs. With the default statistics it knows only the hundred or so commonest words and
-- takes every other for one in 200 articles: a word in 50 looked common enough to walk for.
-- This keeps up to 10,000 words' frequencies (ANALYZE: 2.6 s at 100,000 articles).
ALTER TABLE articles ALTER COLUMN search_vector SET STATISTICS 1000;
CREATE INDEX articles_body_unwritten ON articles (id) WHERE body_text IS NULL;

-- Words the articles use, as readers would type them (lower case), for "Did you mean ...?":
-- written by the app with each save (it cuts the text into words).
CREATE TABLE search_words (
    word TEXT PRIMARY KEY
);
