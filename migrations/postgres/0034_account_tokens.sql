-- One store of single-use emailed tokens for reader accounts: confirming the address, signing
-- in without a password, resetting it. Only hashes of the tokens are kept.
CREATE TABLE account_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('confirm', 'sign-in', 'reset')),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX account_tokens_account ON account_tokens (account_id, purpose);

INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at, used_at)
    SELECT token_hash, account_id, 'confirm', expires_at, used_at FROM account_confirmations;
INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at, used_at)
    SELECT token_hash, account_id, purpose, expires_at, used_at FROM account_links;

DROP TABLE account_confirmations;
DROP TABLE account_links;
