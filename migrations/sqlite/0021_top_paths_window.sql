-- The admin's most viewed articles without adding up a month of per-day rows on each look:
-- views per path over the 28 whole UTC days before `through` (a UTC day number), rebuilt
-- once a day by housekeeping (one instance claims each rebuild) and topped up when a late
-- view for one of those days is written. The chart's 30 local days always hold those 28, so
-- a look adds only the edges (a day or two of rows and today's) to it. `through` 0 = not
-- built yet, and looks add up the per-day rows as before.
CREATE TABLE page_view_path_window (
    path  TEXT PRIMARY KEY,
    views BIGINT NOT NULL
);
CREATE INDEX page_view_path_window_views ON page_view_path_window (views DESC, path);
CREATE TABLE page_view_window_state (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    through BIGINT NOT NULL
);
INSERT INTO page_view_window_state (id, through) VALUES (1, 0);
