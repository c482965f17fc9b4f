//! `highchair openapi`: print the API's OpenAPI document (the UI's types are generated from it).

use std::process::ExitCode;

pub fn run() -> ExitCode {
    if super::out::write(format_args!("{}\n", crate::api::spec_json())) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
