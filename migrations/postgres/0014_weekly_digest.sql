-- The weekly digest: one run per period (an ISO week), claimed by one instance at a time (a
-- run left unfinished by a stopped instance may be taken over after a while), and one
-- delivery per reader and period (the primary key), each with its own unsubscribe token hash.
CREATE TABLE digest_runs (
    period      TEXT PRIMARY KEY NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ
);

CREATE TABLE digest_deliveries (
    period           TEXT NOT NULL,
    account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    unsubscribe_hash TEXT NOT NULL UNIQUE,
    outbox_id        TEXT NOT NULL,
    queued_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (period, account_id)
);
CREATE INDEX digest_deliveries_account ON digest_deliveries (account_id);
