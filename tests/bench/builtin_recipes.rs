//! The offline recipe generator in process, for the recipe benchmark (issue 12):
//! `cargo run --release --example builtin_recipes [-- N]` calls
//! `highchair::generator::builtin::generate` N times (default 1000) for 5 recipes with varied
//! requests (2 to 10 ingredients from the catalogue, servings, difficulty, and in some requests
//! allergies and a diet), and prints median, p99 and max in microseconds: of `generate` alone,
//! and of `generate` plus the screening (`generator::screen`) that a job runs after it.
//! The first call, which also loads the ingredient catalogue, is reported on its own.
//! `-- N fr` asks in French (or `de`, `es`): the foods named as a French parent sees them, the
//! recipes written in French (issue 32).

use std::time::Instant;

use highchair::domain::recipe::{GenerateFields, GenerateRequest};
use highchair::domain::recipe_guard::Guard;
use highchair::generator::{builtin, screen};
use highchair::i18n::foods::food_name;
use highchair::i18n::{Lang, scope};

/// Everyday ingredients from the catalogue, comma-separated.
const PANTRY: &str = "Chicken breast, Chicken thighs, Beef mince, Turkey mince, Pork sausages, \
    Ham, Salmon fillet, Cod fillet, Prawns, Tinned tuna, Tofu, Red lentils, Chickpeas, Eggs, \
    Whole milk, Cheddar cheese, Mozzarella, Greek yoghurt, Butter, Broccoli, Spinach, Peas, \
    Green beans, Carrot, Potato, Sweet potato, Onion, Garlic, Tomato, Red pepper, Courgette, \
    Mushrooms, Sweetcorn, Butternut squash, Apple, Banana, Strawberries, White rice, Couscous, \
    Porridge oats, Spaghetti, Penne, Egg noodles, Tortilla wraps, Plain flour, Olive oil, \
    Chopped tomatoes, Coconut milk, Soy sauce, Honey, Peanut butter, Mild curry powder, \
    Dried oregano";
const ALLERGIES: &[&str] = &["milk", "egg", "peanuts", "gluten", "fish", "sesame", "soy"];
const DIETS: &[&str] = &["vegetarian", "vegan", "halal", "pescatarian"];
const SERVINGS: &[u32] = &[1, 2, 3, 4, 5, 6, 8, 10];
const DIFFICULTY: &[&str] = &["easy", "moderate", "hard"];

/// xorshift64*: the same requests on every run, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `k` different entries of `from`.
    fn pick(&mut self, from: &[&str], k: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        while out.len() < k {
            let s = from[self.below(from.len())];
            if !out.iter().any(|o| o == s) {
                out.push(s.to_string());
            }
        }
        out
    }
}

fn request(rng: &mut Rng, pantry: &[&str]) -> GenerateRequest {
    let size = 2 + rng.below(9);
    let ingredients = rng.pick(pantry, size);
    // Half the requests plain; a quarter with allergies, a quarter with allergies and a diet.
    let (kind, how_many) = (rng.below(4), 1 + rng.below(3));
    let (allergies, diets) = match kind {
        0 | 1 => (Vec::new(), Vec::new()),
        2 => (rng.pick(ALLERGIES, how_many), Vec::new()),
        _ => (rng.pick(ALLERGIES, how_many.min(2)), rng.pick(DIETS, 1)),
    };
    let servings = SERVINGS[rng.below(SERVINGS.len())];
    let difficulty = DIFFICULTY[rng.below(DIFFICULTY.len())].to_string();
    GenerateRequest::new(GenerateFields {
        ingredients,
        dietary_restrictions: diets,
        allergies,
        servings: Some(servings),
        difficulty: Some(difficulty),
        count: Some(5),
    })
    .expect("a valid request")
}

fn summary(label: &str, mut micros: Vec<f64>) {
    micros.sort_by(f64::total_cmp);
    let at = |p: f64| micros[((micros.len() as f64 * p) as usize).min(micros.len() - 1)];
    println!(
        "{label}: median {:.0} us, p99 {:.0} us, max {:.0} us ({} calls)",
        at(0.5),
        at(0.99),
        micros[micros.len() - 1],
        micros.len()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let lang: Lang = args.get(2).and_then(|l| l.parse().ok()).unwrap_or_default();
    println!("language: {}", lang.code());
    scope::within_sync(lang, || run(runs, lang));
}

fn run(runs: usize, lang: Lang) {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let named: Vec<String> = PANTRY.split(", ").map(|f| food_name(lang, f)).collect();
    let pantry: Vec<&str> = named.iter().map(String::as_str).collect();
    let requests: Vec<(GenerateRequest, Guard)> = (0..runs)
        .map(|_| {
            let r = request(&mut rng, &pantry);
            let guard = Guard::new(&r.allergies, &r.dietary_restrictions);
            (r, guard)
        })
        .collect();

    let t = Instant::now();
    let first = builtin::generate(&requests[0].0, &requests[0].1, "GBP");
    println!(
        "first call (loads the catalogue): {:.0} us, {} recipes",
        t.elapsed().as_secs_f64() * 1e6,
        first.recipes.len()
    );

    let mut generate = Vec::with_capacity(runs);
    // Half the requests have no allergy or diet: the guard has nothing to read.
    let (mut plain, mut guarded) = (Vec::new(), Vec::new());
    let mut with_screen = Vec::with_capacity(runs);
    let mut made = Vec::with_capacity(runs);
    for (req, guard) in &requests {
        let t = Instant::now();
        let built = builtin::generate(req, guard, "GBP");
        let generated = t.elapsed();
        let (kept, _withheld) = screen(guard, built.recipes);
        let total = t.elapsed();
        generate.push(generated.as_secs_f64() * 1e6);
        if guard.is_empty() {
            &mut plain
        } else {
            &mut guarded
        }
        .push(generated.as_secs_f64() * 1e6);
        with_screen.push(total.as_secs_f64() * 1e6);
        made.push(kept.len());
    }
    summary("builtin::generate, 5 recipes asked", generate);
    summary("  of which without allergies or diet", plain);
    summary("  of which with allergies or a diet", guarded);
    summary("generate + screen (as a job runs it)", with_screen);
    let five = made.iter().filter(|&&n| n == 5).count();
    let fewest = made.iter().min().copied().unwrap_or(0);
    println!(
        "recipes made: 5 in {five} of {runs} requests, fewest {fewest} (fewer when the ingredients left after allergies and diet make fewer dishes)"
    );
}
