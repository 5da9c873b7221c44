-- The educational packs' files: one uploaded PDF per pack of the fixed catalogue (served from
-- storage once the packs are launched), and when the packs were launched (one row, or none).
CREATE TABLE pack_files (
    pack_id     TEXT PRIMARY KEY NOT NULL,
    file_key    TEXT NOT NULL,
    file_url    TEXT NOT NULL,
    size_bytes  BIGINT NOT NULL,
    uploaded_at TEXT NOT NULL
);

CREATE TABLE launches (
    name        TEXT PRIMARY KEY NOT NULL,
    launched_at TEXT NOT NULL
);
