-- The unsubscribe links a notify list's earlier signup emails carried. A list row keeps the
-- link of its latest signup; signing up again after unsubscribing moves the one before here,
-- so every email ever sent for the list still unsubscribes its reader.
CREATE TABLE list_links (
    unsubscribe_hash TEXT PRIMARY KEY NOT NULL,
    list             TEXT NOT NULL CHECK (list IN ('magazine', 'packs')),
    email            TEXT NOT NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX list_links_email ON list_links (email);
