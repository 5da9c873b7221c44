//! SQLite implementation of [`super::ContentStore`].

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite,
    search,
    no_search_terms,
    write_search_rows,
    // Writes take the write lock first: the search index's triggers read before they write,
    // and a transaction that read first cannot wait for another writer (SQLITE_BUSY at once).
    "BEGIN IMMEDIATE"
);

/// SQLite's index reads the search text itself (see `search`): no token numbers to store.
async fn no_search_terms(
    _: &sqlx::SqlitePool,
    _: &[&super::InsertRow],
) -> Result<Option<Vec<Option<super::SearchKeys>>>, sqlx::Error> {
    Ok(None)
}

/// Appends `bytes` in lower-case hex.
fn push_hex(out: &mut String, bytes: impl Iterator<Item = u8>) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}

/// Appends a token's term read forwards: "f" and its bytes in hex.
fn push_forwards(out: &mut String, token: &[u8]) {
    out.push('f');
    push_hex(out, token.iter().copied());
}

/// Appends a token's term read backwards: "r" and its bytes, last first, in hex.
fn push_backwards(out: &mut String, token: &[u8]) {
    out.push('r');
    push_hex(out, token.iter().rev().copied());
}

fn forwards(token: &[u8]) -> String {
    let mut t = String::with_capacity(1 + 2 * token.len());
    push_forwards(&mut t, token);
    t
}

fn backwards(token: &[u8]) -> String {
    let mut t = String::with_capacity(1 + 2 * token.len());
    push_backwards(&mut t, token);
    t
}

/// An article's sequence in the phrase index (migration 0024): each token read backwards,
/// preceded by the token read forwards, and "b" between two tokens not separated by exactly
/// one space. A token's backward term and the next token's forward term are then side by side
/// exactly when one space separates the two tokens.
fn phrase_stream(tokens: &[(&str, bool)]) -> String {
    let length: usize = tokens.iter().map(|(t, _)| 4 * t.len() + 6).sum();
    let mut out = String::with_capacity(length);
    for (n, (token, one_space)) in tokens.iter().enumerate() {
        if n > 0 {
            out.push_str(if *one_space { " " } else { " b " });
            push_forwards(&mut out, token.as_bytes());
            out.push(' ');
        }
        push_backwards(&mut out, token.as_bytes());
    }
    out
}

/// Rows of an index written per statement (2 values a row).
const INDEX_ROWS: usize = 250;
/// Vocabulary terms written per statement.
const VOCABULARY_TERMS: usize = 1000;

/// Writes `rows` (row number, text) into an index: `into` is the table and its column.
async fn write_index_rows(
    conn: &mut sqlx::SqliteConnection,
    into: &str,
    rows: &[(i64, String)],
) -> Result<(), sqlx::Error> {
    for chunk in rows.chunks(INDEX_ROWS) {
        let mut qb: sqlx::QueryBuilder<sqlx::Sqlite> =
            sqlx::QueryBuilder::new(format!("INSERT INTO {into}) "));
        qb.push_values(chunk, |mut b, (id, text)| {
            b.push_bind(*id).push_bind(text.as_str());
        });
        qb.build().execute(&mut *conn).await?;
    }
    Ok(())
}

/// Writes both search indexes' rows for every article marked unwritten (migration 0024), and
/// their terms into the vocabulary, inside the caller's write transaction: the number written.
async fn write_search_rows(conn: &mut sqlx::SqliteConnection) -> Result<u64, sqlx::Error> {
    let mut written = 0;
    loop {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT d.id, a.search_text FROM article_search_docs d \
             JOIN articles a ON a.id = d.article_id WHERE d.indexed = 0 ORDER BY d.id LIMIT 1000",
        )
        .fetch_all(&mut *conn)
        .await?;
        let Some(&(last, _)) = rows.last() else {
            return Ok(written);
        };
        let mut vocabulary: Vec<&str> = Vec::new();
        let mut words_rows = Vec::with_capacity(rows.len());
        let mut phrase_rows = Vec::with_capacity(rows.len());
        for (id, text) in &rows {
            let tokens = crate::store::spaced_tokens(text);
            phrase_rows.push((*id, phrase_stream(&tokens)));
            let words = crate::store::distinct_tokens(&tokens);
            words_rows.push((*id, words.join(" ")));
            vocabulary.extend(words);
        }
        write_index_rows(conn, "article_search (rowid, search_text", &words_rows).await?;
        write_index_rows(conn, "article_phrases (rowid, stream", &phrase_rows).await?;
        vocabulary.sort_unstable();
        vocabulary.dedup();
        for chunk in vocabulary.chunks(VOCABULARY_TERMS / 2) {
            let mut qb: sqlx::QueryBuilder<sqlx::Sqlite> =
                sqlx::QueryBuilder::new("INSERT OR IGNORE INTO search_vocabulary (term) ");
            let terms = chunk
                .iter()
                .flat_map(|t| [forwards(t.as_bytes()), backwards(t.as_bytes())]);
            qb.push_values(terms, |mut b, term| {
                b.push_bind(term);
            });
            qb.build().execute(&mut *conn).await?;
        }
        sqlx::query("UPDATE article_search_docs SET indexed = 1 WHERE indexed = 0 AND id <= ?")
            .bind(last)
            .execute(&mut *conn)
            .await?;
        written += rows.len() as u64;
    }
}

/// A phrase's terms are looked up while each piece at the ends has at most this many tokens,
/// and their phrases asked for while they make at most this many.
const PHRASES_AT_MOST: usize = 64;

/// How the phrase index answers a searched text.
enum Phrased {
    /// No article holds it.
    Nowhere,
    /// The FTS5 query over `article_phrases` finding exactly the articles holding it.
    Query(String),
    /// Not this way (not pieces between single spaces, or too many tokens).
    Unsuited,
}

/// The vocabulary's terms starting with `prefix` (at most one more than `PHRASES_AT_MOST`).
async fn terms_from(
    conn: &mut sqlx::SqliteConnection,
    prefix: &str,
) -> Result<Vec<String>, sqlx::Error> {
    // Hex digits all sort before "g": the terms starting with the prefix lie below it + "g".
    sqlx::query_scalar(
        "SELECT term FROM search_vocabulary WHERE term >= ?1 AND term < ?1 || 'g' LIMIT ?2",
    )
    .bind(prefix)
    .bind(PHRASES_AT_MOST as i64 + 1)
    .fetch_all(&mut *conn)
    .await
}

/// `q` (lower case) as a query over the phrase index, when it is pieces separated by single
/// spaces: the first piece ends a token, the last starts one, any between are whole tokens,
/// each followed by one space. The tokens ending and starting so come from the vocabulary; the
/// query is each pair of them, with the whole tokens between, as a phrase of terms.
async fn phrase_query(conn: &mut sqlx::SqliteConnection, q: &str) -> Result<Phrased, sqlx::Error> {
    let pieces: Vec<&str> = q.split(' ').collect();
    let unsuited = pieces.len() < 2
        || pieces
            .iter()
            .any(|p| p.is_empty() || p.contains(super::SEPARATORS));
    if unsuited {
        return Ok(Phrased::Unsuited);
    }
    let last = pieces.len() - 1;
    let mut between = String::new();
    for piece in &pieces[1..last] {
        let term = forwards(piece.as_bytes());
        let known: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM search_vocabulary WHERE term = ?)")
                .bind(&term)
                .fetch_one(&mut *conn)
                .await?;
        if !known {
            return Ok(Phrased::Nowhere);
        }
        between.push_str(&format!(
            " + \"{term}\" + \"{}\"",
            backwards(piece.as_bytes())
        ));
    }
    let ending = terms_from(conn, &backwards(pieces[0].as_bytes())).await?;
    let starting = terms_from(conn, &forwards(pieces[last].as_bytes())).await?;
    if ending.is_empty() || starting.is_empty() {
        return Ok(Phrased::Nowhere);
    }
    if ending.len() * starting.len() > PHRASES_AT_MOST {
        return Ok(Phrased::Unsuited);
    }
    let phrases: Vec<String> = ending
        .iter()
        .flat_map(|e| {
            let between = &between;
            starting
                .iter()
                .map(move |s| format!("(\"{e}\"{between} + \"{s}\")"))
        })
        .collect();
    Ok(Phrased::Query(phrases.join(" OR ")))
}

/// The search text as an FTS5 phrase: with the trigram tokenizer, the phrase of its trigrams,
/// each where the one before ends — that is, the text itself, anywhere (case-insensitively).
fn phrase(q: &str) -> String {
    format!("\"{}\"", q.to_lowercase().replace('"', "\"\""))
}

fn indexable(q: &str) -> bool {
    q.chars().count() >= 3
}

/// Articles whose title or text contains `q`, case-insensitively (the search text is lower
/// case), by the trigram index over their words (`article_search`): each piece of `q` between
/// separators lies inside one of their words (pieces shorter than a trigram are not looked
/// up). A `q` of one piece is then found exactly; one with separators, or shorter than a
/// trigram, is checked in each candidate's text.
fn by_words(qb: &mut sqlx::QueryBuilder<'_, sqlx::Sqlite>, q: &str) {
    let pieces: Vec<String> = q
        .split(super::SEPARATORS)
        .filter(|p| indexable(p))
        .map(phrase)
        .collect();
    if !pieces.is_empty() {
        qb.push(
            " AND a.id IN (SELECT d.article_id FROM article_search \
             JOIN article_search_docs d ON d.id = article_search.rowid \
             WHERE article_search MATCH ",
        );
        qb.push_bind(pieces.join(" AND "));
        qb.push(")");
    }
    if pieces.is_empty() || q.contains(super::SEPARATORS) {
        super::like_search(qb, q);
    }
}

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap).
///
/// Both indexes number their rows in date order (migrations 0023, 0024), so they give the
/// matches newest first: they are read, with the narrow `article_search_docs` rows to filter
/// them, only until there is one more than the cap (which always covers the page asked for).
/// Those are put in the listing's order (matches of one millisecond come in the order they
/// were written) and give both the total and the page. Pieces separated by single spaces are
/// found by the phrase index (see `phrase_query`), anything else by the trigram index.
async fn search(
    pool: &sqlx::SqlitePool,
    q: &crate::model::ListQuery,
) -> Result<(Vec<super::CardRow>, i64), sqlx::Error> {
    // Rows the app has not written yet (only between a migration and the start that writes
    // them): no index can be trusted, every text is read.
    let unwritten: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM article_search_docs WHERE indexed = 0)")
            .fetch_one(pool)
            .await?;
    if unwritten {
        return SqliteContentStore::page_and_count(pool, q, &super::like_search::<sqlx::Sqlite>)
            .await;
    }
    let plain = q.sort == crate::model::Sort::Newest && q.author.is_none() && q.exclude.is_none();
    let lower = q.q.to_lowercase();
    let cap = q.count_cap().unwrap_or(crate::model::SEARCH_COUNT_CAP);
    // One read transaction: the vocabulary and the indexes as of one moment.
    let mut tx = pool.begin().await?;
    let asked = if !plain {
        None
    } else if lower.contains(super::SEPARATORS) {
        match phrase_query(&mut tx, &lower).await? {
            Phrased::Nowhere => return Ok((Vec::new(), 0)),
            Phrased::Query(query) => Some(("article_phrases", query)),
            Phrased::Unsuited => None,
        }
    } else if indexable(&lower) {
        Some(("article_search", phrase(&lower)))
    } else {
        None
    };
    let Some((index, query)) = asked else {
        tx.commit().await?;
        return SqliteContentStore::page_and_count(pool, q, &by_words).await;
    };
    let mut matches: sqlx::QueryBuilder<sqlx::Sqlite> = sqlx::QueryBuilder::new(format!(
        "SELECT article_id FROM (SELECT d.article_id, d.created_at FROM {index} \
         CROSS JOIN article_search_docs d ON d.id = {index}.rowid WHERE {index} MATCH "
    ));
    matches.push_bind(query);
    matches.push(" AND d.status = 'published'");
    super::any_category(&mut matches, "d.category", &q.categories);
    matches
        .push(format!(" ORDER BY {index}.rowid DESC LIMIT "))
        .push_bind(cap + 1)
        .push(") ORDER BY created_at DESC, article_id DESC");
    let ids: Vec<String> = matches.build_query_scalar().fetch_all(&mut *tx).await?;
    let total = ids.len() as i64;
    let wanted = super::page_of(&ids, q);
    if wanted.is_empty() {
        return Ok((Vec::new(), total));
    }
    let mut page: sqlx::QueryBuilder<sqlx::Sqlite> = sqlx::QueryBuilder::new(format!(
        "SELECT {} FROM articles a WHERE a.id IN (",
        super::CARD_COLUMNS
    ));
    let mut listed = page.separated(", ");
    for id in wanted {
        listed.push_bind(id.clone());
    }
    page.push(") ORDER BY a.created_at DESC, a.id DESC");
    let found = page.build_query_as().fetch_all(&mut *tx).await?;
    tx.commit().await?;
    Ok((found, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_which_follow_one_space() {
        assert_eq!(
            crate::store::spaced_tokens("  a bc\n\nd\u{a0}e  f\tg h "),
            [
                ("a", false),
                ("bc", true),
                ("d\u{a0}e", false),
                ("f", false),
                ("g", false),
                ("h", true)
            ]
        );
        assert!(crate::store::spaced_tokens(" \t\n").is_empty());
    }

    #[test]
    fn the_stream_sets_a_token_beside_the_next_only_across_one_space() {
        // "ab cd\ne": "ba" backwards, "cd" forwards and backwards, a break, "e" both ways.
        assert_eq!(
            phrase_stream(&crate::store::spaced_tokens("ab cd\ne")),
            "r6261 f6364 r6463 b f65 r65"
        );
        // Bytes, not characters, are reversed and written in hex: "é" is c3 a9.
        assert_eq!(forwards("é".as_bytes()), "fc3a9");
        assert_eq!(backwards("aé".as_bytes()), "ra9c361");
    }
}
