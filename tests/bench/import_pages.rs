//! Recipe import in process, for the import benchmark (issue 31):
//! `cargo run --release --example import_pages [-- N]` reads every page of
//! tests/fixtures/recipe-pages, the 4.5 MB page the test site makes (`huge.html`), and that page
//! with its recipe in microdata instead (the worst case: the page's tree is built), with
//! `highchair::recipe_import::from_html` N times each (default 20), and prints, per page, its
//! size, the median and the slowest time, and the most heap the reading took at once (a counting
//! allocator: bytes allocated and not yet freed, above what was live before). Fetching is not
//! part of it: the import use case fetches first, then reads.

// A global allocator cannot be written without `unsafe`: this one only counts, and hands every
// call to the system allocator unchanged. A benchmark helper, never part of the server.
#![allow(unsafe_code)]

#[path = "../support/recipe_pages.rs"]
mod recipe_pages;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting what is live and the most that was.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System` with the caller's own arguments; only counters change.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                    + (new_size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let mut pages = recipe_pages::pages();
    pages.push((
        "huge.html (made by the test site)".into(),
        recipe_pages::huge_page(),
    ));
    // The worst case: as large, with its recipe in microdata (the page's tree is built).
    pages.push((
        "huge.html with microdata-only.html".into(),
        recipe_pages::huge_page_of("microdata-only.html"),
    ));
    println!(
        "{:<46} {:>9} {:>8} {:>10} {:>10} {:>12}",
        "page", "bytes", "recipes", "median ms", "max ms", "peak heap"
    );
    for (name, html) in &pages {
        // The most heap one read takes, above what is live before it (the page's text).
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let found = highchair::recipe_import::from_html(html).len();
        let peak = PEAK.load(Ordering::Relaxed) - before;
        let mut times: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(highchair::recipe_import::from_html(html));
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{:<46} {:>9} {:>8} {:>10.3} {:>10.3} {:>9.0} KiB",
            name,
            html.len(),
            found,
            times[times.len() / 2],
            times[times.len() - 1],
            peak as f64 / 1024.0
        );
    }
}
