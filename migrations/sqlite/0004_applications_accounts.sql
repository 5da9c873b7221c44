-- Contributor applications. Roles and the stored files are JSON lists; the files themselves
-- live in private storage (never served publicly) and are attached to the team's email.
CREATE TABLE applications (
    id                  TEXT PRIMARY KEY NOT NULL,
    full_name           TEXT NOT NULL,
    age                 INTEGER NOT NULL,
    country             TEXT NOT NULL,
    email               TEXT NOT NULL,
    time_zone           TEXT NOT NULL,
    weekly_availability INTEGER NOT NULL,
    english_level       TEXT NOT NULL CHECK (english_level IN ('B2', 'C1', 'C2', 'Native')),
    how_did_you_hear    TEXT,
    previous_experience TEXT,
    roles               TEXT NOT NULL,
    portfolio_url       TEXT,
    writing_samples_url TEXT,
    research_samples_url TEXT,
    why_join            TEXT NOT NULL,
    contribution        TEXT NOT NULL,
    additional          TEXT,
    files               TEXT NOT NULL,
    created_at          TEXT NOT NULL
);
CREATE INDEX applications_created ON applications (created_at);

-- Reader accounts from /signup. The password is an argon2 hash; an account is usable once
-- its email address is confirmed.
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY NOT NULL,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    age           INTEGER,
    country       TEXT,
    interests     TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    confirmed_at  TEXT
);

-- Single-use, expiring email confirmation links (only the token's hash is kept).
CREATE TABLE account_confirmations (
    token_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX account_confirmations_account ON account_confirmations (account_id);

-- Submissions of the public forms per client address and time window (rate limiting that
-- holds across app instances).
CREATE TABLE form_submissions (
    bucket       TEXT PRIMARY KEY NOT NULL,
    window_start TEXT NOT NULL,
    submissions  INTEGER NOT NULL
);
CREATE INDEX form_submissions_window ON form_submissions (window_start);
