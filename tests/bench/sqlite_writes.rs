//! The SQLite writer's group commit (issue 28, step 1; docs/sqlite-store.md): meal-sized rows
//! written by 1 and by 8 concurrent writers, each answered only after its commit is on disk
//! (WAL, synchronous=FULL). Each write does what the write primitive will: insert the meal row
//! with its two indexes and move the family's revision. Prints writes per second, latency and
//! bytes written to disk per write (`write_bytes` of /proc/self/io: WAL, fsyncs and
//! checkpoints into the database file included), to compare with the sled store's figures in
//! docs/benchmarks.md (issue 9: 14.3 KB per meal with 1 writer).
//!
//!     cargo run --release --example sqlite_writes -- [seconds per run, default 5] [wal_autocheckpoint pages]

use std::sync::Arc;
use std::time::{Duration, Instant};

use highchair::store::sqlite::{Database, WriteFailed};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS meals (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        child_id BLOB NOT NULL,
        meal_date INTEGER NOT NULL,
        body TEXT NOT NULL,
        version INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS meals_by_date ON meals (family_id, meal_date DESC, id);
    CREATE INDEX IF NOT EXISTS meals_by_child ON meals (child_id, meal_date DESC);";

/// About what a meal's columns hold (foods, notes, type, portion, mood): 200 bytes.
const BODY: &str = r#"{"mealType":"Dinner","foods":["Pasta","Peas","Cheese sauce"],"portion":"Most","mood":"Happy","notes":"Ate most of it, asked for more peas","reaction":"None","feedback":null}"#;

fn write_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("write_bytes: "))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

fn failed(e: rusqlite::Error) -> WriteFailed {
    WriteFailed::Commit(e.to_string())
}

async fn one_meal(db: &Database, family: [u8; 16], child: [u8; 16]) -> Result<(), WriteFailed> {
    db.write(move |conn| {
        let id = uuid::Uuid::now_v7();
        let now = chrono::Utc::now().timestamp_millis();
        conn.prepare_cached(
            "INSERT INTO meals (id, family_id, child_id, meal_date, body, version)
             VALUES (?1, ?2, ?3, ?4, ?5, 1)",
        )
        .and_then(|mut s| s.execute((id.as_bytes(), family, child, now, BODY)))
        .map_err(failed)?;
        conn.prepare_cached(
            "INSERT INTO families (id, revision) VALUES (?1, 1)
             ON CONFLICT (id) DO UPDATE SET revision = revision + 1",
        )
        .and_then(|mut s| s.execute([family]))
        .map_err(failed)?;
        Ok(())
    })
    .await
}

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = Arc::new(Database::open(&dir.path().join("bench.db"), 32).expect("the database"));
    db.write(|conn| conn.execute_batch(SCHEMA).map_err(failed))
        .await
        .expect("the schema");
    // To try another checkpoint interval than SQLite's 1,000 pages (the writer's connection).
    if let Some(pages) = std::env::args().nth(2).and_then(|s| s.parse::<u32>().ok()) {
        db.write(move |conn| {
            conn.pragma_update(None, "wal_autocheckpoint", pages)
                .map_err(failed)
        })
        .await
        .expect("wal_autocheckpoint");
        println!("wal_autocheckpoint = {pages} pages\n");
    }

    println!("| writers | writes/s | p50 | p99 | bytes written per write |");
    println!("|---|---|---|---|---|");
    for writers in [1usize, 8] {
        let before = write_bytes();
        let started = Instant::now();
        let until = started + Duration::from_secs(seconds);
        let tasks: Vec<_> = (0..writers)
            .map(|w| {
                let db = db.clone();
                tokio::spawn(async move {
                    // Each writer a parent of their own family, as 8 households at once.
                    let family = *uuid::Uuid::now_v7().as_bytes();
                    let child = *uuid::Uuid::from_u128(w as u128 + 1).as_bytes();
                    let mut latencies = Vec::new();
                    while Instant::now() < until {
                        let t = Instant::now();
                        one_meal(&db, family, child).await.expect("a write");
                        latencies.push(t.elapsed());
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for task in tasks {
            latencies.extend(task.await.expect("a writer"));
        }
        let elapsed = started.elapsed().as_secs_f64();
        let written = write_bytes() - before;
        latencies.sort();
        let at =
            |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
        println!(
            "| {writers} | {:.0} | {:.2} ms | {:.2} ms | {:.0} B |",
            latencies.len() as f64 / elapsed,
            at(0.5).as_secs_f64() * 1000.0,
            at(0.99).as_secs_f64() * 1000.0,
            written as f64 / latencies.len() as f64,
        );
    }
}
