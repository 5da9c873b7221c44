-- Readers' responses to articles (issue 35), pre-moderated: none is public until a content
-- director or an admin approves it. A response goes with its article and with its reader's
-- account.
CREATE TABLE article_responses (
    id         TEXT PRIMARY KEY NOT NULL,
    article_id TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    -- pending, approved or rejected
    status     TEXT NOT NULL,
    -- A rejection's reason, which the reader sees on their account page.
    reason     TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    decided_at TIMESTAMPTZ,
    decided_by TEXT
);
CREATE INDEX article_responses_article ON article_responses (article_id, status, created_at);
CREATE INDEX article_responses_account ON article_responses (account_id, created_at);
CREATE INDEX article_responses_status ON article_responses (status, created_at);

-- Signed-in readers' reports of an approved response: one each; three put it back in the
-- queue.
CREATE TABLE response_reports (
    response_id TEXT NOT NULL REFERENCES article_responses (id) ON DELETE CASCADE,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (response_id, account_id)
);

-- Readers the desk stopped from responding.
CREATE TABLE response_blocks (
    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    blocked_by TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- Articles whose responses staff closed (besides the window after publishing).
CREATE TABLE response_closures (
    article_id TEXT PRIMARY KEY NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    closed_by  TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
