-- Bulk email waits for transactional email: 0 (confirmations, resets, contact and application
-- mail) is sent before 1 (announcements, digests).
ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_due_priority ON outbox (status, priority, next_attempt_at);

-- A launch announcement to a notify list: one per thing announced (a magazine issue, the packs
-- launch). Sending queues its recipients in batches; a restart carries on where it stopped.
CREATE TABLE announcements (
    id          TEXT PRIMARY KEY NOT NULL,
    list        TEXT NOT NULL CHECK (list IN ('magazine', 'packs')),
    subject_ref TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_by  TEXT,
    created_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ,
    UNIQUE (list, subject_ref)
);

-- Who an announcement was queued for: the primary key is what makes "never twice to the same
-- address for the same announcement" hold, whatever runs at the same time. Each carries the
-- hash of its own one-click unsubscribe token.
CREATE TABLE announcement_deliveries (
    announcement_id  TEXT NOT NULL REFERENCES announcements (id) ON DELETE CASCADE,
    email            TEXT NOT NULL,
    unsubscribe_hash TEXT NOT NULL UNIQUE,
    outbox_id        TEXT NOT NULL,
    queued_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (announcement_id, email)
);
CREATE INDEX announcement_deliveries_outbox ON announcement_deliveries (outbox_id);
