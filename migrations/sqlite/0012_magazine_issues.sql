-- Magazine issues readers can open: an uploaded PDF stays a private draft until an admin
-- publishes it with a title, an issue date (YYYY-MM-DD), a short description and a cover. The
-- slug is given at the first publication and kept, so the issue's address never changes.
ALTER TABLE magazines ADD COLUMN slug TEXT;
ALTER TABLE magazines ADD COLUMN issue_date TEXT;
ALTER TABLE magazines ADD COLUMN description TEXT;
ALTER TABLE magazines ADD COLUMN cover_url TEXT;
ALTER TABLE magazines ADD COLUMN published_at TEXT;
CREATE UNIQUE INDEX magazines_slug ON magazines (slug);
CREATE INDEX magazines_published ON magazines (published_at, issue_date);
