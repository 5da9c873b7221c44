-- Downloads of the educational packs by staff (educators), once per member, pack and UTC day.
CREATE TABLE pack_downloads (
    pack_id     TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    PRIMARY KEY (pack_id, user_id, day)
);
