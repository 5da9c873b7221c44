-- Several instances on one database: each period of a background job runs on one of them.
-- A row per job: the last period it ran for, where, and how many periods it has run.
CREATE TABLE job_runs (
    job      TEXT PRIMARY KEY,
    period   BIGINT NOT NULL,
    instance TEXT NOT NULL,
    ran_at   TEXT NOT NULL,
    runs     BIGINT NOT NULL DEFAULT 0
);
