-- The search's GIN indexes without a pending list. By default (`fastupdate`) a GIN index takes
-- new entries into an unsorted pending list, merged into the index only by a vacuum or once
-- it passes `gin_pending_list_limit` (4 MB), and every search reads the whole list first.
-- Right after a bulk load the vocabulary's list alone made each lookup of a word read 367
-- pages (2.6-3.5 ms instead of 0.1); on a live site it grows between vacuums the same way.
-- These indexes are read far more often than they are written (an article at a time, a new
-- word now and then), so each entry now goes straight into the index.

-- An index a bulk load dropped and has not built again yet (`Db::defer_indexes`) is built
-- with the same setting. This comes first: a build claiming one of these rows at the same
-- time (`build_deferred`) either waits for it and builds the new definition, or has built
-- the index before the `ALTER INDEX` below looks for it.
UPDATE deferred_indexes
SET definition = definition || ' WITH (fastupdate = off)'
WHERE definition LIKE '% USING gin %' AND definition NOT LIKE '%fastupdate%';

ALTER INDEX IF EXISTS search_vocabulary_trgm SET (fastupdate = off);
ALTER INDEX IF EXISTS articles_search_terms SET (fastupdate = off);
ALTER INDEX IF EXISTS articles_search_words SET (fastupdate = off);
ALTER INDEX IF EXISTS article_search_docs_pairs SET (fastupdate = off);

-- What is already pending is merged now.
SELECT gin_clean_pending_list(c.oid)
FROM pg_class c
WHERE c.relname IN ('search_vocabulary_trgm', 'articles_search_terms', 'articles_search_words',
                    'article_search_docs_pairs')
  AND c.relkind = 'i' AND c.relnamespace = current_schema()::regnamespace;
