-- A contributor's optional photo (issue 35): the address of a picture uploaded and processed
-- like a cover (`/media/covers/…`), or none.
ALTER TABLE contributor_profiles ADD COLUMN photo TEXT;
