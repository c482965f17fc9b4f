//! The languages the server speaks, and choosing one from what a request asks for.

use std::fmt;
use std::str::FromStr;

/// A language with a complete catalogue (server and UI).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// British English: the spec's texts.
    #[default]
    En,
    Fr,
    De,
    Es,
}

/// A plural category (CLDR) that a language's catalogue has a form for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluralForm {
    One,
    Many,
    Other,
}

impl PluralForm {
    pub fn suffix(self) -> &'static str {
        match self {
            PluralForm::One => "_one",
            PluralForm::Many => "_many",
            PluralForm::Other => "_other",
        }
    }
}

impl Lang {
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Fr, Lang::De, Lang::Es];

    /// The code in URLs, headers, the config and the catalogues' file names.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::Es => "es",
        }
    }

    /// The language's name in itself, for the CLI and the config's error.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Fr => "Français",
            Lang::De => "Deutsch",
            Lang::Es => "Español",
        }
    }

    /// Its name in English, for a model's prompt.
    pub fn english_name(self) -> &'static str {
        match self {
            Lang::En => "British English",
            Lang::Fr => "French",
            Lang::De => "German",
            Lang::Es => "Spanish",
        }
    }

    /// The plural forms its catalogue has (CLDR, as i18next v4 and Weblate use them).
    pub fn plural_forms(self) -> &'static [PluralForm] {
        match self {
            Lang::En | Lang::De => &[PluralForm::One, PluralForm::Other],
            // French and Spanish have "many" for millions ("1 000 000 de repas").
            Lang::Fr | Lang::Es => &[PluralForm::One, PluralForm::Many, PluralForm::Other],
        }
    }

    /// CLDR's rule for whole numbers.
    pub fn plural_form(self, n: u64) -> PluralForm {
        match self {
            Lang::En | Lang::De => {
                if n == 1 {
                    PluralForm::One
                } else {
                    PluralForm::Other
                }
            }
            Lang::Fr if n <= 1 => PluralForm::One,
            Lang::Es if n == 1 => PluralForm::One,
            Lang::Fr | Lang::Es if n != 0 && n.is_multiple_of(1_000_000) => PluralForm::Many,
            Lang::Fr | Lang::Es => PluralForm::Other,
        }
    }

    /// A day the short way people write it: "Mon 23 Nov", "lun. 23 nov.", "Mo., 23. Nov.",
    /// "lun 23 nov" (CLDR's abbreviated names; the year is the week's, so left out).
    pub fn short_day(self, day: chrono::NaiveDate) -> String {
        use chrono::Datelike;
        let weekday = day.weekday().num_days_from_monday() as usize;
        let month = day.month0() as usize;
        let d = day.day();
        match self {
            Lang::En => format!("{} {d} {}", EN_DAYS[weekday], EN_MONTHS[month]),
            Lang::Fr => format!("{} {d} {}", FR_DAYS[weekday], FR_MONTHS[month]),
            Lang::De => format!("{}, {d}. {}", DE_DAYS[weekday], DE_MONTHS[month]),
            Lang::Es => format!("{} {d} {}", ES_DAYS[weekday], ES_MONTHS[month]),
        }
    }

    /// "23 Nov", "23 nov.", "23. Nov.", "23 nov.".
    pub fn day_month(self, day: chrono::NaiveDate) -> String {
        use chrono::Datelike;
        let month = day.month0() as usize;
        let d = day.day();
        match self {
            Lang::En => format!("{d} {}", EN_MONTHS[month]),
            Lang::Fr => format!("{d} {}", FR_MONTHS[month]),
            Lang::De => format!("{d}. {}", DE_MONTHS[month]),
            Lang::Es => format!("{d} {}", ES_MONTHS[month]),
        }
    }

    /// One decimal: "2.5", or "2,5" where the comma is the decimal mark.
    pub fn decimal(self, value: f64) -> String {
        let text = format!("{value:.1}");
        match self {
            Lang::En => text,
            Lang::Fr | Lang::De | Lang::Es => text.replace('.', ","),
        }
    }

    /// Between the notes of a list: "a; b", French "a ; b" (a no-break space before).
    pub fn separator(self) -> &'static str {
        match self {
            Lang::Fr => "\u{a0}; ",
            Lang::En | Lang::De | Lang::Es => "; ",
        }
    }

    /// "a, b and c".
    pub fn and_list(self, items: &[String]) -> String {
        let and = match self {
            Lang::En => "and",
            Lang::Fr => "et",
            Lang::De => "und",
            Lang::Es => "y",
        };
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {and} {last}", rest.join(", ")),
        }
    }

    /// The best language for an `Accept-Language` header: the first range (by quality, then
    /// order) whose primary language has a catalogue. None when it names none of them.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(u16, Lang)> = None;
        // Bounded: a header is at most a few KB, and only the first 32 ranges are read.
        for range in header.split(',').take(32) {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or("").trim();
            let quality = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(1000, parse_quality);
            if quality == 0 {
                continue;
            }
            let primary = tag.split(['-', '_']).next().unwrap_or("");
            let Ok(lang) = primary.parse::<Lang>() else {
                continue;
            };
            if best.is_none_or(|(q, _)| quality > q) {
                best = Some((quality, lang));
            }
        }
        best.map(|(_, lang)| lang)
    }
}

/// A quality value ("0.8") in thousandths; a malformed one counts as 0 (not wanted).
fn parse_quality(q: &str) -> u16 {
    let q = q.trim();
    let (whole, frac) = q.split_once('.').unwrap_or((q, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let frac: u16 = format!("{frac:0<3}").parse().unwrap_or(0);
    match whole {
        "1" if frac == 0 => 1000,
        "0" => frac,
        _ => 0,
    }
}

impl FromStr for Lang {
    type Err = ();

    /// A language code, in any case ("fr", "FR").
    fn from_str(s: &str) -> Result<Self, ()> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(s.trim()))
            .ok_or(())
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

const EN_DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const EN_MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const FR_DAYS: [&str; 7] = ["lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."];
const FR_MONTHS: [&str; 12] = [
    "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
    "déc.",
];
const DE_DAYS: [&str; 7] = ["Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."];
const DE_MONTHS: [&str; 12] = [
    "Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez.",
];
const ES_DAYS: [&str; 7] = ["lun", "mar", "mié", "jue", "vie", "sáb", "dom"];
const ES_MONTHS: [&str; 12] = [
    "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic",
];
