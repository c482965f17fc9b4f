//! `highchair config check`.

use std::process::ExitCode;

use super::out::say;
use super::{EXIT_CONFIG, Sources};
use crate::config::Settings;

pub fn check(sources: &Sources) -> ExitCode {
    match Settings::load(sources) {
        Ok(settings) => {
            match &sources.file {
                Some(path) => eprintln!("Configuration OK ({}).", path.display()),
                None => eprintln!("Configuration OK (no file given: defaults and environment)."),
            }
            if say!("{}", settings.to_toml()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(err) => {
            eprintln!("highchair: configuration error: {err}");
            ExitCode::from(EXIT_CONFIG)
        }
    }
}
