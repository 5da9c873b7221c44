-- What a form posted without JavaScript answered (its messages and the values to show again),
-- kept for the page the browser is sent back to (post/redirect/get) and read once.
CREATE TABLE form_answers (
    token_hash TEXT PRIMARY KEY NOT NULL,
    page       TEXT NOT NULL,
    answer     TEXT NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX form_answers_expires ON form_answers (expires_ms);
