-- One row per counted public page view. No personal data: no address, no user agent.
CREATE TABLE page_views (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    path      TEXT NOT NULL,
    viewed_at TEXT NOT NULL
);
CREATE INDEX page_views_viewed_at ON page_views (viewed_at);

-- Monthly magazine issues (PDFs in public storage).
CREATE TABLE magazines (
    id          TEXT PRIMARY KEY NOT NULL,
    title       TEXT NOT NULL,
    file_key    TEXT NOT NULL,
    file_url    TEXT NOT NULL,
    size_bytes  BIGINT NOT NULL,
    uploaded_at TEXT NOT NULL
);
CREATE INDEX magazines_uploaded_at ON magazines (uploaded_at);
