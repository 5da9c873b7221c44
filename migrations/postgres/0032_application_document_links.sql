-- Applications whose documents are too large to attach: the team's email links to a staff-only
-- download instead, which works until `documents_until`.
ALTER TABLE applications ADD COLUMN documents_until TIMESTAMPTZ;

-- Those documents in private storage, each deleted by housekeeping after `delete_after` (the
-- links' expiry, or at once when the applicant's reader account is deleted). No foreign key:
-- the row outlives its application, so a file is never forgotten in storage.
CREATE TABLE application_documents (
    storage_key    TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    delete_after   TIMESTAMPTZ NOT NULL
);
CREATE INDEX application_documents_application ON application_documents (application_id);
CREATE INDEX application_documents_due ON application_documents (delete_after);

-- Each download of a linked document: who, which, when.
CREATE TABLE application_downloads (
    application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    field          TEXT NOT NULL,
    user_id        TEXT NOT NULL, -- kept when the member leaves: the record stays whole
    downloaded_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX application_downloads_application ON application_downloads (application_id);
