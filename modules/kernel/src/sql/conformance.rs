//! The statement builder's conformance suite, run against every engine by the app's tests:
//! the same statement text and values give the same answers on both.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use chrono::{DateTime, Utc};

use crate::Db;

/// A row of the check table: id, n, flag, at, note.
type Checked = (
    String,
    i64,
    Option<bool>,
    Option<DateTime<Utc>>,
    Option<String>,
);

pub async fn run(db: &Db, other: &Db) {
    db.sql("CREATE TABLE sql_check (id TEXT PRIMARY KEY, n BIGINT NOT NULL, flag BOOLEAN, at TIMESTAMPTZ, note TEXT)")
        .execute(db)
        .await
        .unwrap();
    let at: DateTime<Utc> = "2026-11-28T08:00:00.123456Z".parse().unwrap();
    // Values of every kind the stores bind, in order, with the engine's own placeholders.
    for (id, n, flag, note) in [
        ("a", 1_i64, true, Some("first")),
        ("b", 2, false, None),
        ("c", 3, true, None),
    ] {
        let mut insert = db.sql("INSERT INTO sql_check (id, n, flag, at, note) VALUES (");
        insert
            .bind(id.to_string())
            .push(", ")
            .bind(n)
            .push(", ")
            .bind(flag)
            .push(", ")
            .bind(at)
            .push(", ")
            .bind(note.map(str::to_string))
            .push(")");
        assert_eq!(insert.execute(db).await.unwrap(), 1);
    }
    // Several rows in one statement.
    let mut many = db.sql("INSERT INTO sql_check (id, n) ");
    many.push_values([("d", 4_i64), ("e", 5)], |row, (id, n)| {
        row.bind(id.to_string()).bind(n);
    });
    assert_eq!(many.execute(db).await.unwrap(), 2);
    assert_eq!(
        db.sql("DELETE FROM sql_check WHERE n >= 4")
            .execute(db)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        db.sql("INSERT INTO sql_check (id, n) VALUES ('a', 9) ON CONFLICT (id) DO NOTHING")
            .execute(db)
            .await
            .unwrap(),
        0,
        "nothing changed"
    );

    // Rows as tuples, a list of values, and the placeholders numbered across the list.
    let mut q = db.sql("SELECT id, n, flag, at, note FROM sql_check WHERE id IN (");
    q.bind_list(["a".to_string(), "c".to_string()])
        .push(") AND n >= ")
        .bind(1_i64)
        .push(" ORDER BY id");
    let rows: Vec<Checked> = q.fetch_all(db).await.unwrap();
    assert_eq!(
        rows,
        vec![
            ("a".into(), 1, Some(true), Some(at), Some("first".into())),
            ("c".into(), 3, Some(true), Some(at), None),
        ]
    );
    let mut q = db.sql("SELECT n FROM sql_check WHERE id = ");
    q.bind("b".to_string());
    assert_eq!(q.scalar::<i64>(db).await.unwrap(), 2);
    let mut q = db.sql("SELECT n FROM sql_check WHERE id = ");
    q.bind("zz".to_string());
    assert_eq!(q.scalar_optional::<i64>(db).await.unwrap(), None);
    let mut q = db.sql("SELECT id, n FROM sql_check WHERE id = ");
    q.bind("zz".to_string());
    assert!(matches!(
        q.fetch_one::<(String, i64)>(db).await,
        Err(sqlx::Error::RowNotFound)
    ));
    let ids: Vec<String> = db
        .sql("SELECT id FROM sql_check ORDER BY n DESC")
        .scalars(db)
        .await
        .unwrap();
    assert_eq!(ids, ["c", "b", "a"]);
    let mut q = db.sql("DELETE FROM sql_check WHERE id = ");
    q.bind("b".to_string()).push(" RETURNING n");
    assert_eq!(q.fetch_optional::<(i64,)>(db).await.unwrap(), Some((2,)));

    // A transaction: what it wrote is seen inside it, and by others only once committed;
    // dropped without a commit, it is undone.
    let mut tx = db.begin().await.unwrap();
    let mut q = db.sql("UPDATE sql_check SET n = n + ");
    q.bind(10_i64).push(" WHERE id = ").bind("a".to_string());
    assert_eq!(q.execute(&mut tx).await.unwrap(), 1);
    let inside: i64 = db
        .sql("SELECT n FROM sql_check WHERE id = 'a'")
        .scalar(&mut tx)
        .await
        .unwrap();
    assert_eq!(inside, 11);
    drop(tx);
    let after: i64 = db
        .sql("SELECT n FROM sql_check WHERE id = 'a'")
        .scalar(db)
        .await
        .unwrap();
    assert_eq!(after, 1, "rolled back");
    let mut tx = db.begin().await.unwrap();
    db.sql("UPDATE sql_check SET n = 5 WHERE id = 'a'")
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let after: i64 = db
        .sql("SELECT n FROM sql_check WHERE id = 'a'")
        .scalar(db)
        .await
        .unwrap();
    assert_eq!(after, 5, "committed");

    // A transaction that reads, then writes (SQLite's takes the write lock at its start);
    // rolled back at once, it is undone.
    let mut tx = db.begin_write().await.unwrap();
    let n: i64 = db
        .sql("SELECT n FROM sql_check WHERE id = 'a'")
        .scalar(&mut tx)
        .await
        .unwrap();
    let mut q = db.sql("UPDATE sql_check SET n = ");
    q.bind(n + 1).push(" WHERE id = 'a'");
    q.execute(&mut tx).await.unwrap();
    tx.rollback().await.unwrap();
    let after: i64 = db
        .sql("SELECT n FROM sql_check WHERE id = 'a'")
        .scalar(db)
        .await
        .unwrap();
    assert_eq!(after, 5, "rolled back");

    // A statement written for one engine refuses the other's connection (an error, not a
    // wrong placeholder sent to the server).
    if db.is_postgres() != other.is_postgres() {
        let refused = db.sql("SELECT 1").execute(other).await;
        assert!(
            matches!(refused, Err(sqlx::Error::Configuration(_))),
            "{refused:?}"
        );
    }
    db.sql("DROP TABLE sql_check").execute(db).await.unwrap();
}
