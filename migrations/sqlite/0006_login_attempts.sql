-- Sign-in attempts, one row each, counted over a sliding window (identity module). Replaces the
-- fixed calendar-window counters, which let twice the limit through around a window's edge.
-- A row is recorded before the key is checked (so concurrent attempts count) and removed when
-- the sign-in succeeds or is refused; rows older than the window are deleted.
DROP TABLE login_failures;
CREATE TABLE login_attempts (
    id     TEXT PRIMARY KEY NOT NULL,
    bucket TEXT NOT NULL,
    at_ms  INTEGER NOT NULL
);
CREATE INDEX login_attempts_bucket ON login_attempts (bucket, at_ms);
CREATE INDEX login_attempts_at ON login_attempts (at_ms);
