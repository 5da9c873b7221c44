-- Staff users (identity module). Keys are stored only as a keyed hash (filled by the staff-access work).
CREATE TABLE users (
    id            TEXT PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'writer', 'educator', 'content-director')),
    key_hash      TEXT UNIQUE,
    active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMPTZ NOT NULL,
    last_login_at TIMESTAMPTZ
);
CREATE INDEX users_role ON users (role, active);

-- Articles (content module). Derived fields are computed once, on write.
CREATE TABLE articles (
    id              TEXT PRIMARY KEY NOT NULL,
    slug            TEXT NOT NULL UNIQUE,
    title           TEXT NOT NULL,
    subtitle        TEXT,
    content         TEXT NOT NULL,
    category        TEXT NOT NULL CHECK (category IN ('International Affairs', 'Climate Justice', 'Culture & Politics', 'Human Rights', 'Youth Activism', 'Digital Democracy')),
    cover_image     TEXT,
    featured        BOOLEAN NOT NULL DEFAULT FALSE,
    status          TEXT NOT NULL CHECK (status IN ('draft', 'published')),
    author_id       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    excerpt         TEXT NOT NULL,
    content_html    TEXT NOT NULL,
    reading_minutes INTEGER NOT NULL,
    search_text     TEXT NOT NULL
);
CREATE INDEX articles_public_newest ON articles (status, created_at DESC, id DESC);
CREATE INDEX articles_public_featured ON articles (status, featured DESC, created_at DESC, id DESC);
CREATE INDEX articles_author ON articles (author_id, created_at DESC);

-- Old slugs of published articles, answered with a permanent redirect.
CREATE TABLE article_slug_history (
    slug       TEXT PRIMARY KEY NOT NULL,
    article_id TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL
);
