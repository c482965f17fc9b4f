//! The allergen and food safety matchers in process (issue 32): `cargo run --release --example
//! food_reading [-- N]` reads a day's foods N times (default 20000) for a 9-month-old with two
//! allergies, the work of one food check, and prints the median and p99 in microseconds: for
//! foods typed in English, and for foods typed in French, German and Spanish.

use std::time::Instant;

use highchair::domain::allergens::conflicts;
use highchair::domain::food_safety::{Age, rule_hits};

const ENGLISH: &[&str] = &[
    "Porridge with banana",
    "Buttered toast",
    "Whole grapes",
    "Cheese sandwich",
    "Fish fingers and peas",
    "Chicken curry with rice",
    "Peanut butter on toast",
    "Greek yoghurt with honey",
    "Scrambled eggs",
    "Apple slices",
];
const FOREIGN: &[&str] = &[
    "Tartine au beurre de cacahuète",
    "raisins entiers",
    "Yaourt nature et miel",
    "Erdnussbutterbrot",
    "Vollmilch",
    "Rührei mit Schinken",
    "uvas enteras",
    "pan sin gluten",
    "Tortilla de patatas",
    "jus de raisin",
];

fn run(foods: &[&str], n: usize) -> (f64, f64) {
    let foods: Vec<String> = foods.iter().map(|f| f.to_string()).collect();
    let allergies = vec!["Peanuts".to_string(), "Milk".to_string()];
    let age = Age {
        months: 9,
        from_birth_month: true,
    };
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let found = conflicts(&foods, &allergies).len()
            + foods.iter().map(|f| rule_hits(f, age).len()).sum::<usize>();
        std::hint::black_box(found);
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    (times[n / 2], times[n * 99 / 100])
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    // The tables and word lists load on first use.
    let first = Instant::now();
    run(ENGLISH, 1);
    run(FOREIGN, 1);
    println!(
        "first call (tables loaded): {:.0} µs",
        first.elapsed().as_secs_f64() * 1e6
    );
    for (name, foods) in [("English", ENGLISH), ("French, German, Spanish", FOREIGN)] {
        let (median, p99) = run(foods, n);
        println!(
            "{name}: 10 foods, 2 allergies, 9 months: median {median:.1} µs, p99 {p99:.1} µs ({n} checks)"
        );
    }
}
