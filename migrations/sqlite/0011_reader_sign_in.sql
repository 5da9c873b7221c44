-- Reader sign-in: sessions of reader accounts (a table of their own, so a reader's cookie can
-- never open a staff session and the reverse), and single-use, expiring emailed links for
-- signing in without a password and for resetting it. Only hashes of the tokens are kept.
CREATE TABLE reader_sessions (
    token_hash   TEXT PRIMARY KEY NOT NULL,
    account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX reader_sessions_account ON reader_sessions (account_id);

CREATE TABLE account_links (
    token_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('sign-in', 'reset')),
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX account_links_account ON account_links (account_id);

-- The weekly digest of new articles in the reader's interests: subscribed since when (NULL
-- when not subscribed), and the hash of the token of its one-click unsubscribe link.
ALTER TABLE accounts ADD COLUMN digest_since TEXT;
ALTER TABLE accounts ADD COLUMN digest_unsubscribe_hash TEXT;
CREATE UNIQUE INDEX accounts_digest_unsubscribe ON accounts (digest_unsubscribe_hash);
