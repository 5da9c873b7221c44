-- A contributor's public profile (issue 35): the address of their page, whether it shows
-- their full name (by default only their first name and initial), and a short bio.
-- The slug is made once from the shorter name, so an address never holds a last name.
CREATE TABLE contributor_profiles (
    user_id         TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    slug            TEXT NOT NULL UNIQUE,
    full_name_shown BOOLEAN NOT NULL DEFAULT FALSE,
    bio             TEXT NOT NULL DEFAULT '',
    updated_at      TIMESTAMPTZ NOT NULL
);
