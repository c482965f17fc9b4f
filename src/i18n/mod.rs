//! The server's words in the family's language (issue 32).
//!
//! Everything the server says to people (errors, food safety warnings, the offline generator's
//! recipes, grocery exports, the CLI) is written in the code in English, as a [`Text`] made by
//! [`t!`](crate::t) or [`t_plural!`](crate::t_plural): the English is the catalogue key, as
//! gettext's msgid, so the code reads as what people read. A text is worded in a language only
//! where it leaves the server ([`Text::render`]); until then it is data, so the domain stays
//! free of any notion of who asks.
//!
//! The catalogues are `locales/server/<lang>.json`, i18next JSON v4 (the UI's format, which
//! Weblate reads): flat, key = the English, plurals as `key_one`, `key_other` (and `key_many`
//! where CLDR has it). `en.json` is the base file translators start from; a test keeps it equal
//! to the texts the code contains, and every other catalogue to its keys (docs/translating.md).

mod catalogue;
pub mod foods;
mod lang;
pub mod scope;

pub use lang::Lang;

use std::fmt;

/// A text for people: its English, the catalogue key, and the values it names. Small (most
/// texts are a key alone), as errors carry two of them.
#[derive(Clone, PartialEq, Eq)]
pub struct Text {
    /// The English (the plural's other form for a text that counts): also the catalogue key.
    key: &'static str,
    more: Option<Box<More>>,
}

#[derive(Clone, PartialEq, Eq, Default)]
struct More {
    /// The English singular and the number, for a text that counts.
    one: Option<&'static str>,
    count: Option<u64>,
    args: Vec<(&'static str, Arg)>,
}

/// A value a text names: as given (a child's name, a number), or itself a text, worded in the
/// same language (an allergen's name inside a warning).
#[derive(Clone, PartialEq, Eq)]
pub enum Arg {
    Plain(String),
    Text(Box<Text>),
    /// A day, written the language's short way: "Mon 23 Nov", "lun. 23 nov.".
    Day(chrono::NaiveDate),
    /// A day of the month: "23 Nov", "23 nov.", "23. Nov.".
    DayMonth(chrono::NaiveDate),
    /// A number of tenths, written with one decimal the language's way: 15 is "1.5", "1,5".
    Tenths(i64),
    /// Texts one after another: "a; b" (French "a ; b").
    List(Vec<Text>),
    /// A food's name, as the ingredient catalogue names it in the language when it is one of
    /// its foods ("Eggs" is "Œufs"), else as given; in lower case inside a sentence (German
    /// nouns keep their capital).
    Food {
        name: String,
        lowercase: bool,
    },
    /// Catalogue foods named with their article inside a sentence: "the carrot and peas",
    /// "la carotte et les petits pois", "Karotte und Erbsen" (German recipes go without).
    TheFoods(Vec<String>),
    /// "a, b and c", the language's way; the first letter capitalised when it starts a
    /// sentence.
    And {
        items: Vec<Text>,
        capitalise: bool,
    },
}

impl Text {
    /// Use [`t!`](crate::t): the macro is what the catalogue test finds.
    #[doc(hidden)]
    pub const fn new(key: &'static str) -> Text {
        Text { key, more: None }
    }

    /// Use [`t_plural!`](crate::t_plural).
    #[doc(hidden)]
    pub fn plural(one: &'static str, other: &'static str, count: u64) -> Text {
        Text {
            key: other,
            more: Some(Box::new(More {
                one: Some(one),
                count: Some(count),
                args: Vec::new(),
            })),
        }
    }

    /// Words that are not the server's own, shown as they are: what a family typed, or words
    /// already worded in a language (the reasons kept with a recipe job).
    pub fn as_given(words: impl Into<String>) -> Text {
        Text::new("{{text}}").with("text", words.into())
    }

    /// A food's name inside a sentence ([`Arg::Food`], in lower case), as a text of its own:
    /// for lists of foods.
    pub fn food(name: impl Into<String>) -> Text {
        Text::arg(Arg::Food {
            name: name.into(),
            lowercase: true,
        })
    }

    /// A value worded on its own, as a text: a food with its article where a text is asked.
    pub fn arg(value: impl Into<Arg>) -> Text {
        Text::new("{{text}}").with("text", value)
    }

    /// Texts worded one after another ("a; b", French "a ; b"), as one.
    pub fn joined(texts: Vec<Text>) -> Text {
        Text::new("{{text}}").with("text", Arg::List(texts))
    }

    /// Names a value: `{{name}}` in the text.
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Text {
        self.more
            .get_or_insert_default()
            .args
            .push((name, value.into()));
        self
    }

    fn count(&self) -> Option<u64> {
        self.more.as_ref().and_then(|m| m.count)
    }

    /// The catalogue key (the English).
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The text in `lang`; in English when the catalogue lacks it.
    pub fn render(&self, lang: Lang) -> String {
        let form = self.count().map(|n| lang.plural_form(n));
        let one = self.more.as_ref().and_then(|m| m.one);
        let template = catalogue::lookup(lang, self.key, form)
            .or_else(|| catalogue::lookup(Lang::En, self.key, form))
            .unwrap_or(match (one, self.count()) {
                (Some(one), Some(1)) => one,
                _ => self.key,
            });
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(start) = rest.find("{{") {
            let Some(len) = rest[start + 2..].find("}}") else {
                break;
            };
            out.push_str(&rest[..start]);
            // "{{what, lowercase}}": a German compound takes its first word in lower case
            // ("glutenfrei").
            let (name, format) = match rest[start + 2..start + 2 + len].split_once(',') {
                Some((name, format)) => (name.trim(), format.trim()),
                None => (rest[start + 2..start + 2 + len].trim(), ""),
            };
            match self.value(name, lang) {
                Some(value) if format == "lowercase" => out.push_str(&value.to_lowercase()),
                Some(value) => out.push_str(&value),
                // A placeholder the code does not fill stays visible, not silently empty.
                None => out.push_str(&rest[start..start + 4 + len]),
            }
            rest = &rest[start + 4 + len..];
        }
        out.push_str(rest);
        out
    }

    fn value(&self, name: &str, lang: Lang) -> Option<String> {
        if name == "count"
            && let Some(n) = self.count()
        {
            return Some(n.to_string());
        }
        self.more
            .as_ref()?
            .args
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, arg)| match arg {
                Arg::Plain(s) => s.clone(),
                Arg::Text(t) => t.render(lang),
                Arg::Day(d) => lang.short_day(*d),
                Arg::Tenths(v) => lang.decimal(*v as f64 / 10.0),
                Arg::DayMonth(d) => lang.day_month(*d),
                Arg::Food { name, lowercase } => {
                    let name = foods::food_name(lang, name);
                    if *lowercase && lang != Lang::De {
                        name.to_lowercase()
                    } else {
                        name
                    }
                }
                Arg::TheFoods(names) => foods::the_foods(lang, names),
                Arg::List(texts) => texts
                    .iter()
                    .map(|t| t.render(lang))
                    .collect::<Vec<_>>()
                    .join(lang.separator()),
                Arg::And { items, capitalise } => {
                    let items: Vec<String> = items.iter().map(|t| t.render(lang)).collect();
                    let list = lang.and_list(&items);
                    if *capitalise {
                        let mut chars = list.chars();
                        chars
                            .next()
                            .map(|c| c.to_uppercase().chain(chars).collect())
                            .unwrap_or_default()
                    } else {
                        list
                    }
                }
            })
    }

    /// The text in the language of the request being answered (see [`scope`]).
    pub fn here(&self) -> String {
        self.render(scope::current())
    }
}

/// In English: logs, `Display` of errors, and tests that read the spec's texts.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.render(Lang::En))
    }
}

/// Tests compare a text with the spec's English.
impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.render(Lang::En) == *other
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.render(Lang::En) == other
    }
}

/// A title passed down by reference (`&SAVE_TITLE`) becomes an error's own.
impl From<&Text> for Text {
    fn from(value: &Text) -> Self {
        value.clone()
    }
}

impl From<String> for Arg {
    fn from(value: String) -> Self {
        Arg::Plain(value)
    }
}

impl From<&str> for Arg {
    fn from(value: &str) -> Self {
        Arg::Plain(value.to_string())
    }
}

impl From<&String> for Arg {
    fn from(value: &String) -> Self {
        Arg::Plain(value.clone())
    }
}

impl From<chrono::NaiveDate> for Arg {
    fn from(value: chrono::NaiveDate) -> Self {
        Arg::Day(value)
    }
}

impl From<Text> for Arg {
    fn from(value: Text) -> Self {
        Arg::Text(Box::new(value))
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(value: $t) -> Self {
                Arg::Plain(value.to_string())
            }
        }
    )*};
}
number_args!(u8, u16, u32, u64, usize, i32, i64);

/// A text for people, in English: `t!("Please enter a name")`, or with values
/// `t!("{{name}} is allergic", name = child.name.clone())`. The literal is the catalogue key.
#[macro_export]
macro_rules! t {
    ($key:literal) => {
        $crate::i18n::Text::new($key)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::Text::new($key)$(.with(stringify!($name), $value))+
    };
}

/// A text that counts: `t_plural!("{{count}} second", "{{count}} seconds", n)`, worded by the
/// language's plural rules (`{{count}}` is the number).
#[macro_export]
macro_rules! t_plural {
    ($one:literal, $other:literal, $count:expr) => {
        $crate::i18n::Text::plural($one, $other, ($count) as u64)
    };
    ($one:literal, $other:literal, $count:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::Text::plural($one, $other, ($count) as u64)$(.with(stringify!($name), $value))+
    };
}

#[cfg(test)]
mod tests;
