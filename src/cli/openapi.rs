//! `highchair openapi`: print the API's OpenAPI document (the UI's types are generated from it).

use std::process::ExitCode;

use super::out::say;

pub fn run() -> ExitCode {
    if say!("{}", crate::api::spec_json()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
