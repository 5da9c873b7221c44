-- Email that looks like the publication: a message may carry an HTML part beside its plain
-- text (sent as multipart/alternative), removed with the body on delivery like the body is;
-- an announcement keeps the HTML it sends, as it keeps its text.
ALTER TABLE outbox ADD COLUMN html TEXT;
ALTER TABLE announcements ADD COLUMN html TEXT;
