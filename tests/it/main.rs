//! Integration tests: the real app on 127.0.0.1, port 0, a temporary data directory, real HTTP.
//! One test binary with modules keeps build time down.

#[path = "../support/fake_ollama.rs"]
mod fake_ollama;
mod harness;
#[path = "../support/recipe_pages.rs"]
mod recipe_pages;

mod accounts;
mod admin_cli;
mod backups;
mod children;
mod cli;
mod co_parents;
mod conflicts;
mod connections;
mod contact;
mod errors;
mod events;
mod food_safety;
mod grocery;
mod health;
mod households;
mod isolation;
mod languages;
mod meal_plan;
mod meals;
mod photos;
mod races;
mod recipe_import;
mod recipes;
mod share;
mod signin;
mod sites;
mod spa;
mod storage;
mod upgrade;
