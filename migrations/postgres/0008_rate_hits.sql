-- One rate limiter for every module (kernel): a row per hit, counted over a sliding window per
-- bucket, kept until its window has passed. Replaces the sign-in attempts (identity) and the
-- fixed-window form counters (outreach), which were the same mechanism written twice.
DROP TABLE login_attempts;
DROP TABLE form_submissions;
CREATE TABLE rate_hits (
    id         TEXT PRIMARY KEY NOT NULL,
    bucket     TEXT NOT NULL,
    at_ms      BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX rate_hits_bucket ON rate_hits (bucket, at_ms);
CREATE INDEX rate_hits_expires ON rate_hits (expires_ms);
