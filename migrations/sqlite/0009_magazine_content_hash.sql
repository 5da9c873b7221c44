-- The SHA-256 of each magazine PDF, so the same file uploaded twice is recognised (rows from
-- before this migration have none; the unique index ignores them).
ALTER TABLE magazines ADD COLUMN content_sha256 TEXT;
CREATE UNIQUE INDEX magazines_content_sha256 ON magazines (content_sha256);
