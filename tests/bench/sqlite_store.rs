//! The SQLite store through its repositories (issue 28; docs/sqlite-store.md): five years of
//! a family's meals (3 children, 6 meals a day, one in five with a photo, 3 foods each)
//! written by 8 concurrent writers, then meals by 1 writer, then the first page of the meals
//! list read by 8 concurrent readers. Every write is answered only after its commit is on
//! disk (WAL, synchronous=FULL, group commit). Prints writes per second, bytes written to
//! disk per meal (`write_bytes` of /proc/self/io: WAL, fsyncs and checkpoints included),
//! pages read per second with p50/p99, the process's RSS and the database's size.
//!
//!     cargo run --release --example sqlite_store -- [seconds of reads, default 5] [page size]
//!
//! The page size (default SQLite's 4096) is fixed when a database is made; the benchmark
//! makes its database with the one asked for before the store opens it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use highchair::domain::child::{Child, ChildFields};
use highchair::domain::ids::{ChildId, FamilyId, MediaId};
use highchair::domain::meal::{Meal, MealFields, MealType, Mood, Portion};
use highchair::store::media::{MediaRecord, Variant};
use highchair::store::sqlite::Store;

const FOODS: [&str; 12] = [
    "Porridge", "Banana", "Pasta", "Peas", "Chicken", "Rice", "Yoghurt", "Apple", "Carrots",
    "Fish pie", "Toast", "Broccoli",
];
const DAYS: i64 = 5 * 365;
const PER_DAY: i64 = 6;

fn proc_value(file: &str, key: &str) -> u64 {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

fn write_bytes() -> u64 {
    proc_value("/proc/self/io", "write_bytes:")
}

fn rss_kib() -> u64 {
    proc_value("/proc/self/status", "VmRSS:")
}

fn meal(family: FamilyId, child: ChildId, n: i64, photo: Option<MediaId>) -> Meal {
    let now = Utc::now();
    let at = now - chrono::Duration::minutes(n * 24 * 60 / PER_DAY);
    let pick = |k: i64| FOODS[((n * 7 + k * 5) % FOODS.len() as i64) as usize].to_string();
    Meal::create(
        family,
        MealFields {
            child_id: child,
            meal_type: MealType::ALL[(n % 6) as usize],
            foods: vec![pick(0), pick(1), pick(2)],
            portion: Portion::Full,
            mood: Mood::Happy,
            feedback: None,
            notes: if n % 4 == 0 {
                "Ate most of it, asked for more peas".into()
            } else {
                String::new()
            },
            photo,
            meal_date: at,
            reaction: Default::default(),
            reaction_note: String::new(),
        },
        now,
    )
}

/// Writes meals `from..to` (spread over the children) with `writers` concurrent writers.
/// Returns meals per second and bytes written per meal.
async fn write_meals(
    store: &Arc<Store>,
    family: FamilyId,
    children: &[ChildId],
    range: std::ops::Range<i64>,
    writers: i64,
    photos: bool,
) -> (f64, f64, Vec<Duration>) {
    let before = write_bytes();
    let (commits_before, writes_before) = store.write_counts();
    let started = Instant::now();
    let tasks: Vec<_> = (0..writers)
        .map(|w| {
            let store = store.clone();
            let children = children.to_vec();
            let range = range.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                for n in range.filter(|n| n % writers == w) {
                    let child = children[(n % children.len() as i64) as usize];
                    let t = Instant::now();
                    let photo = if photos && n % 5 == 0 {
                        let record = MediaRecord {
                            id: MediaId::new(),
                            family,
                            version: 1,
                            width: 1600,
                            height: 1200,
                            attached: false,
                            created_at: Utc::now(),
                            bytes: 3,
                        };
                        store
                            .media
                            .insert(
                                &record,
                                &[(Variant::Full, b"jpg"), (Variant::Thumb, b"jpg")],
                            )
                            .await
                            .expect("an upload");
                        Some(record.id)
                    } else {
                        None
                    };
                    store
                        .meals
                        .insert(&meal(family, child, n, photo))
                        .await
                        .expect("a meal");
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
    let meals = (range.end - range.start) as f64;
    let seconds = started.elapsed().as_secs_f64();
    let (commits, writes) = store.write_counts();
    eprintln!(
        "  {writers} writers: {:.1} writes per commit",
        (writes - writes_before) as f64 / (commits - commits_before).max(1) as f64
    );
    latencies.sort();
    (
        meals / seconds,
        (write_bytes() - before) as f64 / meals,
        latencies,
    )
}

fn at(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(5);
    let page_size: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4096);
    let dir = tempfile::tempdir().expect("a temporary directory");
    {
        // The page size is fixed by the first table of a new database.
        let conn = rusqlite::Connection::open(dir.path().join("highchair.db")).expect("a file");
        conn.pragma_update(None, "page_size", page_size)
            .expect("page_size");
        conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE made (x); DROP TABLE made;")
            .expect("made");
    }
    let store = Arc::new(Store::open(dir.path(), 32).expect("the store"));
    let family = FamilyId::new();
    let mut children = Vec::new();
    for name in ["Emma", "Leo", "Ava"] {
        let child = Child::create(
            family,
            ChildFields {
                name: name.into(),
                age: Some(3),
                dietary_restrictions: vec![],
                allergies: vec!["Peanuts".into()],
                birth_month: None,
            },
            Utc::now(),
        );
        children.push(store.children.insert(&child).await.expect("a child").id);
    }
    println!("page size {page_size} B\n");
    println!("| writing | meals | meals/s | p50 | p99 | bytes written per meal |");
    println!("|---|---|---|---|---|---|");
    let total = DAYS * PER_DAY;
    let (rate, bytes, lat) = write_meals(&store, family, &children, 0..total, 8, true).await;
    println!(
        "| 5 years (one in five with a photo, its upload a write of its own), 8 writers | {total} | {rate:.0} | {:.2} ms | {:.2} ms | {bytes:.0} B |",
        at(&lat, 0.5),
        at(&lat, 0.99)
    );
    let mut next = total;
    for writers in [8, 1] {
        let count = 2000;
        let (rate, bytes, lat) = write_meals(
            &store,
            family,
            &children,
            next..next + count,
            writers,
            false,
        )
        .await;
        next += count;
        println!(
            "| then meals without photos, {writers} writer(s) | {count} | {rate:.0} | {:.2} ms | {:.2} ms | {bytes:.0} B |",
            at(&lat, 0.5),
            at(&lat, 0.99)
        );
    }
    let total = next;

    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let readers: Vec<_> = (0..8)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < until {
                    let t = Instant::now();
                    let (page, _) = store
                        .meals
                        .page(family, None, None, 20)
                        .await
                        .expect("a page");
                    assert_eq!(page.len(), 20);
                    latencies.push(t.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for reader in readers {
        latencies.extend(reader.await.expect("a reader"));
    }
    latencies.sort();
    println!(
        "\n| reading (8 readers) | pages/s | p50 | p99 |\n|---|---|---|---|\n| meals list, first page of 20 | {:.0} | {:.2} ms | {:.2} ms |",
        latencies.len() as f64 / started.elapsed().as_secs_f64(),
        at(&latencies, 0.5),
        at(&latencies, 0.99)
    );
    let size = std::fs::metadata(dir.path().join("highchair.db"))
        .map(|m| m.len())
        .unwrap_or(0);
    println!(
        "\nRSS after reading: {:.1} MiB; database {:.1} MiB ({} meals)",
        rss_kib() as f64 / 1024.0,
        size as f64 / (1024.0 * 1024.0),
        total
    );
}
