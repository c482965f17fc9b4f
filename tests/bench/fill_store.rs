//! Fills a data directory with a realistic family for the backup and load benchmarks: one
//! parent account, 3 children, `--years` (5) of meals at 6 a day, 20% with a photo (each photo
//! a distinct record with the three stored sizes of a phone-like picture), 100 saved recipes
//! from the built-in generator, 20 grocery lists of 50 items and 8 weeks of meal plan (the
//! current week, 4 before, 3 after); plus `--others` (0) smaller families (a year of meals
//! without photos, 10 recipes, 2 lists, this week's plan). Writes through the store's
//! repositories (the write primitive), not HTTP: minutes of uploads become seconds, and the
//! records are the ones the server would write.
//!
//!   cargo run --release --example fill_store -- DATA_DIR [--years 5] [--others 9]
//!
//! Prints the counts and the time it took. The parent signs in as family@example.org,
//! password "correct horse battery" (others: family1@example.org ...).

use std::time::Instant;

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use futures_util::future::join_all;
use highchair::admin::ops::{AddUser, add_user};
use highchair::domain::child::{Child, ChildFields};
use highchair::domain::email::Email;
use highchair::domain::grocery::{GroceryList, ItemDraft};
use highchair::domain::ids::{ChildId, FamilyId, MediaId, UserId};
use highchair::domain::meal::{Meal, MealFields, MealType, Mood, Portion};
use highchair::domain::meal_plan::{EntryFields, Planned, RecipeSummary, Week};
use highchair::domain::recipe::{GenerateFields, GenerateRequest, Recipe, Source};
use highchair::domain::recipe_guard::Guard;
use highchair::generator::builtin;
use highchair::generator::catalogue::Catalogue;
use highchair::store::media::{MediaRecord, Variant};
use highchair::{App, Settings};

const FOODS: [&str; 12] = [
    "Porridge", "Banana", "Pasta", "Peas", "Chicken", "Rice", "Yoghurt", "Apple", "Carrots",
    "Fish pie", "Toast", "Broccoli",
];

fn arg(args: &[String], name: &str, default: u32) -> u32 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: fill_store DATA_DIR [--years 5] [--others 9]");
        std::process::exit(2);
    };
    let years = arg(&args, "--years", 5);
    let others = arg(&args, "--others", 0);
    let mut settings = Settings::default();
    settings.storage.data_dir = dir.into();
    let app = App::new(settings).unwrap_or_else(|e| {
        eprintln!("fill_store: {e}");
        std::process::exit(3);
    });
    let started = Instant::now();
    // Three phone-like pictures through the real pipeline; each photo record gets one's sizes.
    let pictures: Vec<_> = (0..3)
        .map(|i| {
            let jpeg = meal_photo(4000, 3000, i);
            highchair::media::pipeline::process(&jpeg, highchair::media::pipeline::PHOTO_EDGE)
                .expect("a picture")
        })
        .collect();
    for p in &pictures {
        println!("picture: {p:?}");
    }
    let mut totals = (0usize, 0usize);
    let mut extras = Extras::default();
    for n in 0..=others {
        let email = if n == 0 {
            "family@example.org".to_string()
        } else {
            format!("family{n}@example.org")
        };
        // The others are smaller: a year of meals each, no photos.
        let size = if n == 0 {
            Size {
                years,
                photo_every: 5,
                recipes: 100,
                lists: 20,
                plan_weeks: -4..4,
            }
        } else {
            Size {
                years: years.min(1),
                photo_every: 0,
                recipes: 10,
                lists: 2,
                plan_weeks: 0..1,
            }
        };
        let (meals, photos) = fill_family(&app, &email, &size, &pictures, &mut extras).await;
        totals.0 += meals;
        totals.1 += photos;
    }
    println!(
        "filled {dir}: {} families, {} meals, {} photos, {} recipes, {} grocery lists, {} plan \
         entries in {:.1} s (store {:.1} MiB on disk)",
        others + 1,
        totals.0,
        totals.1,
        extras.recipes,
        extras.lists,
        extras.plan_entries,
        started.elapsed().as_secs_f64(),
        app.store().size_on_disk() as f64 / 1048576.0
    );
}

/// A 12 MP picture that compresses like a photo of a plate: soft shapes and light, fine grain.
fn meal_photo(w: u32, h: u32, seed: u32) -> Vec<u8> {
    use image::codecs::jpeg::JpegEncoder;
    let (cx, cy, r) = (w as f32 / 2.0, h as f32 / 2.0, h as f32 * 0.4);
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        let (fx, fy) = (x as f32, y as f32);
        let d = ((fx - cx).powi(2) + (fy - cy).powi(2)).sqrt();
        let grain =
            ((x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503) ^ seed) % 17) as f32 - 8.0;
        let wave = ((fx / 37.0 + seed as f32).sin() * (fy / 53.0).cos()) * 40.0;
        let (base_r, base_g, base_b) = if d < r {
            (200.0 + wave, 120.0 + wave / 2.0, 60.0)
        } else if d < r * 1.15 {
            (235.0, 235.0, 230.0)
        } else {
            (90.0 + fy / h as f32 * 60.0, 70.0, 50.0 + wave / 3.0)
        };
        let px = |v: f32| (v + grain).clamp(0.0, 255.0) as u8;
        image::Rgb([px(base_r), px(base_g), px(base_b)])
    });
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .encode_image(&img)
        .expect("encode");
    out
}

/// How much one family gets.
struct Size {
    years: u32,
    /// Every n-th meal has a photo; 0: none.
    photo_every: usize,
    recipes: usize,
    lists: usize,
    /// Weeks of plan, relative to the current one.
    plan_weeks: std::ops::Range<i64>,
}

/// Counts of what `fill_extras` wrote, over all families.
#[derive(Default)]
struct Extras {
    recipes: usize,
    lists: usize,
    plan_entries: usize,
}

async fn fill_family(
    app: &App,
    email: &str,
    size: &Size,
    pictures: &[highchair::media::pipeline::Processed],
    extras: &mut Extras,
) -> (usize, usize) {
    let years = size.years;
    add_user(
        app,
        AddUser {
            email: email.into(),
            first_name: "Sam".into(),
            last_name: "Rivera".into(),
            role: "mom".into(),
            password: "correct horse battery".into(),
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{email}: {}", e.message));
    let parent = app
        .store()
        .users
        .get_by_email(&Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    let family: FamilyId = parent.family_id;
    let now = Utc::now();
    let mut children = Vec::new();
    for (name, age) in [("Ava", 6), ("Noah", 4), ("Mia", 2)] {
        let fields = ChildFields {
            name: name.into(),
            age: Some(age),
            dietary_restrictions: Vec::new(),
            allergies: vec!["Peanuts".into()],
            birth_month: None,
        };
        let child = app
            .store()
            .children
            .insert(&Child::create(family, fields, now))
            .await
            .expect("child");
        children.push(child.id);
    }
    let days = i64::from(years) * 365 + i64::from(years / 4);
    let mut planned = Vec::new();
    for day in 0..days {
        for (slot, meal_type) in MealType::ALL.iter().enumerate() {
            for (c, child) in children.iter().enumerate() {
                let n = planned.len();
                let at = now - Duration::days(days - day) + Duration::hours(7 + 2 * slot as i64);
                let with_photo = size.photo_every > 0 && n % size.photo_every == 0;
                planned.push((*child, *meal_type, at, with_photo, n + c));
            }
        }
    }
    let mut photos = 0;
    for batch in planned.chunks(64) {
        let writes = batch
            .iter()
            .map(|(child, meal_type, at, with_photo, n)| async move {
                let photo = if *with_photo {
                    let picture = &pictures[n % pictures.len()];
                    let record = MediaRecord {
                        id: MediaId::new(),
                        family,
                        version: 1,
                        width: picture.width,
                        height: picture.height,
                        attached: false,
                        created_at: *at,
                        bytes: (picture.full.len() + picture.medium.len() + picture.thumb.len())
                            as u64,
                    };
                    let sizes = [
                        (Variant::Full, picture.full.as_slice()),
                        (Variant::Medium, picture.medium.as_slice()),
                        (Variant::Thumb, picture.thumb.as_slice()),
                    ];
                    app.store()
                        .media
                        .insert(&record, &sizes)
                        .await
                        .expect("photo");
                    Some(record.id)
                } else {
                    None
                };
                let fields = MealFields {
                    child_id: *child,
                    meal_type: *meal_type,
                    foods: vec![
                        FOODS[n % FOODS.len()].into(),
                        FOODS[(n / 7) % FOODS.len()].into(),
                    ],
                    portion: Portion::Full,
                    mood: Mood::Happy,
                    feedback: None,
                    notes: if n % 9 == 0 {
                        "Ate it all, asked for more".into()
                    } else {
                        String::new()
                    },
                    photo,
                    meal_date: *at,
                    reaction: Default::default(),
                    reaction_note: String::new(),
                };
                app.store()
                    .meals
                    .insert(&Meal::create(family, fields, *at))
                    .await
                    .expect("meal");
                usize::from(photo.is_some())
            });
        photos += join_all(writes).await.into_iter().sum::<usize>();
    }
    fill_extras(app, family, parent.id, &children, size, now, extras).await;
    (planned.len(), photos)
}

/// Recipes from the built-in generator, grocery lists from the catalogue and a meal plan of
/// those recipes for breakfast, lunch and dinner.
async fn fill_extras(
    app: &App,
    family: FamilyId,
    parent: UserId,
    children: &[ChildId],
    size: &Size,
    now: DateTime<Utc>,
    extras: &mut Extras,
) {
    let catalogue: Vec<_> = Catalogue::get().items().collect();
    let guard = Guard::new(&[], &[]);
    let mut recipes = HashMap::new();
    let mut round = 0usize;
    while recipes.len() < size.recipes {
        let ingredients = (0..5)
            .map(|i| {
                catalogue[(round * 7 + i * 13) % catalogue.len()]
                    .name
                    .clone()
            })
            .collect();
        round += 1;
        let request = GenerateRequest::new(GenerateFields {
            ingredients,
            count: Some(5),
            ..Default::default()
        })
        .expect("a valid request");
        for content in builtin::generate(&request, &guard, "GBP").recipes {
            if recipes.len() == size.recipes {
                break;
            }
            let recipe = Recipe::create(family, parent, Source::Generated, content, now);
            let saved = app.store().recipes.insert(&recipe).await.expect("recipe");
            recipes.insert(saved.id, RecipeSummary::from(&saved));
        }
    }
    extras.recipes += recipes.len();
    for l in 0..size.lists {
        let items = (0..50)
            .map(|i| {
                let item = catalogue[(l * 50 + i) % catalogue.len()];
                ItemDraft {
                    name: item.name.clone(),
                    quantity: format!("{}", 1 + i % 3),
                    category: item.grocery.clone(),
                    checked: i % 4 == 0,
                }
                .validate()
                .expect("a valid item")
            })
            .collect();
        let list = GroceryList::create(family, format!("Shopping week {}", l + 1), items, now);
        app.store().grocery_lists.insert(&list).await.expect("list");
    }
    extras.lists += size.lists;
    let ids: Vec<_> = recipes.keys().copied().collect();
    for offset in size.plan_weeks.clone() {
        let week = Week::containing((now + Duration::weeks(offset)).date_naive());
        let mut entries = Vec::new();
        for (d, date) in week.days().into_iter().enumerate() {
            for (m, meal_type) in [MealType::Breakfast, MealType::Lunch, MealType::Dinner]
                .into_iter()
                .enumerate()
            {
                let n = d * 3 + m;
                entries.push(EntryFields {
                    id: None,
                    date,
                    meal_type,
                    planned: Planned::Recipe(ids[n % ids.len()]),
                    servings: None,
                    children: if n % 4 == 0 {
                        vec![children[n % children.len()]]
                    } else {
                        Vec::new()
                    },
                });
            }
        }
        extras.plan_entries += entries.len();
        app.store()
            .meal_plans
            .save(family, week, 0, entries, &recipes, now)
            .await
            .expect("plan");
    }
}
