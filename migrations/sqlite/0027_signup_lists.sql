-- What a reader asked to hear about when signing up (a JSON list of "magazine", "packs",
-- "digest"): applied when they confirm their address, then cleared.
ALTER TABLE accounts ADD COLUMN signup_lists TEXT NOT NULL DEFAULT '[]';
