-- Durable email: a message is stored in the same transaction as the data that caused it, then
-- delivered (with retries) by a background job.
CREATE TABLE outbox (
    id              TEXT PRIMARY KEY NOT NULL,
    created_at      TEXT NOT NULL,
    recipients      TEXT NOT NULL,
    reply_to        TEXT,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    attachments     TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error      TEXT,
    sent_at         TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

-- "Notify me" lists: one table per list, as in the original.
CREATE TABLE magazine_notifications (
    id                 TEXT PRIMARY KEY NOT NULL,
    email              TEXT NOT NULL UNIQUE,
    unsubscribe_hash   TEXT NOT NULL UNIQUE,
    created_at         TEXT NOT NULL,
    unsubscribed_at    TEXT
);
CREATE TABLE pack_notifications (
    id                 TEXT PRIMARY KEY NOT NULL,
    email              TEXT NOT NULL UNIQUE,
    unsubscribe_hash   TEXT NOT NULL UNIQUE,
    created_at         TEXT NOT NULL,
    unsubscribed_at    TEXT
);

CREATE TABLE contact_messages (
    id           TEXT PRIMARY KEY NOT NULL,
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    email        TEXT NOT NULL,
    subject      TEXT NOT NULL,
    inquiry_type TEXT NOT NULL CHECK (inquiry_type IN ('general', 'education')),
    message      TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX contact_messages_created ON contact_messages (created_at);
