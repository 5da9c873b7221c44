-- Search at scale: a trigram index (pg_trgm, a trusted extension: the database owner may
-- create it) over each article's search text, which answers the product's search — any piece
-- of text, case-insensitive, in the title or the text — as `search_text LIKE '%…%'`.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX articles_search_trgm ON articles USING gin (search_text gin_trgm_ops);
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
    SELECT floor(extract(epoch FROM viewed_at) / 900)::bigint * 900, COUNT(*)
    FROM page_views GROUP BY 1;
INSERT INTO page_view_path_days (day, path, views)
    SELECT floor(extract(epoch FROM viewed_at) / 86400)::bigint, path, COUNT(*)
    FROM page_views GROUP BY 1, 2;
