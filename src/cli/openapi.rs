//! `highchair openapi`: print the API's OpenAPI document (the UI's types are generated from
//! it), or with `--rules` the rules the UI's forms check (its `src/api/rules.json`).

use std::process::ExitCode;

use super::out::say;

pub fn run(rules: bool) -> ExitCode {
    let text = if rules {
        crate::api::site::rules_json()
    } else {
        crate::api::spec_json()
    };
    if say!("{text}") {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
