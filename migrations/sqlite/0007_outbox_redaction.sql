-- A delivered message keeps only its metadata: the body (which may carry single-use links) and
-- the attachment list are removed on delivery, on discard, or when a given-up message has
-- outlived its retention; `redacted_at` says when.
ALTER TABLE outbox ADD COLUMN redacted_at TEXT;
