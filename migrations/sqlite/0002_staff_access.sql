-- Server-side staff sessions: only a hash of the cookie token is stored.
CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Failed access-key attempts per fixed window, shared by every app instance.
CREATE TABLE login_failures (
    bucket       TEXT PRIMARY KEY NOT NULL,
    window_start TEXT NOT NULL,
    failures     INTEGER NOT NULL
);
CREATE INDEX login_failures_window ON login_failures (window_start);

-- When an article was first published: its slug is public from then on.
ALTER TABLE articles ADD COLUMN first_published_at TEXT;
UPDATE articles SET first_published_at = created_at WHERE status = 'published';
