//! Quantities as recipes write them ("200 g", "1 1/2 cups", "½ tsp", "3"): read, added when
//! their units agree ('200 g' + '100 g' -> '300 g', '1 cup' + '1/2 cup' -> '1 1/2 cups',
//! '1 kg' + '250 g' -> '1.25 kg'), scaled (a meal plan's servings), and written back the way a
//! cook writes them. What cannot be read ("a handful, chopped") is kept as typed.

use std::fmt;

/// An exact amount: cooking fractions add up without rounding (1/3 + 2/3 = 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amount {
    num: i64,
    den: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

impl Amount {
    pub fn new(num: i64, den: i64) -> Option<Amount> {
        if den == 0 || num < 0 || den < 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Amount {
            num: num / g,
            den: den / g,
        })
    }

    pub fn whole(n: i64) -> Amount {
        Amount { num: n, den: 1 }
    }

    pub fn checked_add(self, other: Amount) -> Option<Amount> {
        let num = self
            .num
            .checked_mul(other.den)?
            .checked_add(other.num.checked_mul(self.den)?)?;
        Amount::new(num, self.den.checked_mul(other.den)?)
    }

    pub fn checked_mul(self, other: Amount) -> Option<Amount> {
        Amount::new(
            self.num.checked_mul(other.num)?,
            self.den.checked_mul(other.den)?,
        )
    }

    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn is_one_or_less(self) -> bool {
        self.num <= self.den
    }

    /// "3", "1/2", "1 1/2"; thirds, quarters and eighths as a cook says them, anything finer
    /// as a decimal.
    fn as_fraction(self) -> String {
        let (whole, rest) = (self.num / self.den, self.num % self.den);
        if rest == 0 {
            return whole.to_string();
        }
        if ![2, 3, 4, 8].contains(&self.den) {
            return decimal(self.as_f64());
        }
        if whole == 0 {
            format!("{rest}/{}", self.den)
        } else {
            format!("{whole} {rest}/{}", self.den)
        }
    }
}

/// Up to two decimals, no trailing zeros: "2.5", "1.25", "3".
fn decimal(v: f64) -> String {
    let s = format!("{:.2}", (v * 100.0).round() / 100.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Units a quantity can be added in. Grams and kilograms are one family (as are millilitres
/// and litres); the others add only to themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Gram,
    Millilitre,
    Teaspoon,
    Tablespoon,
    Cup,
    Pinch,
    Clove,
    Tin,
    Slice,
    Piece,
    Handful,
    Bunch,
    Pack,
}

impl Unit {
    /// The unit a word names, and how many of the base unit it holds (kg = 1000 g).
    fn parse(word: &str) -> Option<(Unit, i64)> {
        let w = word.trim_end_matches('.').to_lowercase();
        Some(match w.as_str() {
            "g" | "gr" | "gram" | "grams" | "gramme" | "grammes" => (Unit::Gram, 1),
            "kg" | "kgs" | "kilo" | "kilos" | "kilogram" | "kilograms" => (Unit::Gram, 1000),
            "ml" | "millilitre" | "millilitres" | "milliliter" | "milliliters" => {
                (Unit::Millilitre, 1)
            }
            "l" | "litre" | "litres" | "liter" | "liters" => (Unit::Millilitre, 1000),
            "tsp" | "teaspoon" | "teaspoons" => (Unit::Teaspoon, 1),
            "tbsp" | "tablespoon" | "tablespoons" => (Unit::Tablespoon, 1),
            "cup" | "cups" => (Unit::Cup, 1),
            "pinch" | "pinches" => (Unit::Pinch, 1),
            "clove" | "cloves" => (Unit::Clove, 1),
            "tin" | "tins" | "can" | "cans" => (Unit::Tin, 1),
            "slice" | "slices" => (Unit::Slice, 1),
            "piece" | "pieces" => (Unit::Piece, 1),
            "handful" | "handfuls" => (Unit::Handful, 1),
            "bunch" | "bunches" => (Unit::Bunch, 1),
            "pack" | "packs" | "packet" | "packets" => (Unit::Pack, 1),
            _ => return None,
        })
    }

    fn name(self, plural: bool) -> &'static str {
        match (self, plural) {
            (Unit::Gram, _) => "g",
            (Unit::Millilitre, _) => "ml",
            (Unit::Teaspoon, _) => "tsp",
            (Unit::Tablespoon, _) => "tbsp",
            (Unit::Cup, false) => "cup",
            (Unit::Cup, true) => "cups",
            (Unit::Pinch, false) => "pinch",
            (Unit::Pinch, true) => "pinches",
            (Unit::Clove, false) => "clove",
            (Unit::Clove, true) => "cloves",
            (Unit::Tin, false) => "tin",
            (Unit::Tin, true) => "tins",
            (Unit::Slice, false) => "slice",
            (Unit::Slice, true) => "slices",
            (Unit::Piece, false) => "piece",
            (Unit::Piece, true) => "pieces",
            (Unit::Handful, false) => "handful",
            (Unit::Handful, true) => "handfuls",
            (Unit::Bunch, false) => "bunch",
            (Unit::Bunch, true) => "bunches",
            (Unit::Pack, false) => "pack",
            (Unit::Pack, true) => "packs",
        }
    }
}

/// An amount in a unit (grams and millilitres kept in their base unit), or a plain count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    pub amount: Amount,
    pub unit: Option<Unit>,
}

/// "½" and friends.
fn vulgar(c: char) -> Option<Amount> {
    let (n, d) = match c {
        '½' => (1, 2),
        '⅓' => (1, 3),
        '⅔' => (2, 3),
        '¼' => (1, 4),
        '¾' => (3, 4),
        '⅛' => (1, 8),
        _ => return None,
    };
    Amount::new(n, d)
}

/// One number: "3", "1.5", "1/2", "½", "1½".
fn number(token: &str) -> Option<Amount> {
    let mut chars = token.chars();
    let last = chars.next_back()?;
    if let Some(frac) = vulgar(last) {
        let head = chars.as_str();
        return if head.is_empty() {
            Some(frac)
        } else {
            number(head)?.checked_add(frac)
        };
    }
    if let Some((n, d)) = token.split_once('/') {
        return Amount::new(n.parse().ok()?, d.parse().ok()?);
    }
    if let Some((whole, frac)) = token.split_once('.') {
        if frac.is_empty() || frac.len() > 4 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let den = 10_i64.pow(frac.len() as u32);
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        return Amount::new(whole.checked_mul(den)? + frac.parse::<i64>().ok()?, den);
    }
    if token.len() > 9 {
        return None;
    }
    token.parse().ok().map(Amount::whole)
}

impl Quantity {
    /// Reads a whole quantity ("200g", "1 1/2 cups", "2"); `None` when any of it is not a
    /// number or a known unit ("2 large", "to taste").
    pub fn parse(text: &str) -> Option<Quantity> {
        let text = text.trim();
        // "200g": the number and the unit written together.
        let split = text
            .char_indices()
            .find(|&(_, c)| c.is_alphabetic())
            .map_or(text.len(), |(i, _)| i);
        let (numbers, unit) = text.split_at(split);
        let mut amount: Option<Amount> = None;
        for token in numbers.split_whitespace() {
            let n = number(token)?;
            amount = Some(match amount {
                None => n,
                // "1 1/2": a whole number then a fraction.
                Some(a) if a.den == 1 && n.num < n.den => a.checked_add(n)?,
                Some(_) => return None,
            });
        }
        let amount = amount?;
        let unit = unit.trim();
        if unit.is_empty() {
            return Some(Quantity { amount, unit: None });
        }
        if unit.split_whitespace().count() != 1 {
            return None;
        }
        let (unit, factor) = Unit::parse(unit)?;
        Some(Quantity {
            amount: amount.checked_mul(Amount::whole(factor))?,
            unit: Some(unit),
        })
    }

    /// The sum, when the units agree.
    pub fn plus(self, other: Quantity) -> Option<Quantity> {
        (self.unit == other.unit).then_some(())?;
        Some(Quantity {
            amount: self.amount.checked_add(other.amount)?,
            unit: self.unit,
        })
    }

    pub fn times(self, factor: Amount) -> Option<Quantity> {
        Some(Quantity {
            amount: self.amount.checked_mul(factor)?,
            unit: self.unit,
        })
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.amount.as_f64();
        match self.unit {
            None => f.write_str(&self.amount.as_fraction()),
            Some(Unit::Gram) if v >= 1000.0 => write!(f, "{} kg", decimal(v / 1000.0)),
            Some(Unit::Millilitre) if v >= 1000.0 => write!(f, "{} l", decimal(v / 1000.0)),
            Some(u @ (Unit::Gram | Unit::Millilitre)) => {
                write!(f, "{} {}", decimal(v), u.name(false))
            }
            Some(u) => write!(
                f,
                "{} {}",
                self.amount.as_fraction(),
                u.name(!self.amount.is_one_or_less())
            ),
        }
    }
}

/// Units recipes from other countries write that the list does not add up ("8 oz").
const OTHER_UNITS: &[&str] = &[
    "oz", "ounce", "ounces", "lb", "lbs", "pound", "pounds", "pint", "pints", "quart", "quarts",
    "stick", "sticks", "dash", "dashes", "sprig", "sprigs", "knob", "can", "sachet", "sachets",
    "fl", "dl", "cl", "mg",
];

/// Whether a word is a number or a range of them ("2", "1/2", "½", "1½", "2-3", "2–3").
fn is_amount(word: &str) -> bool {
    number(word).is_some()
        || word
            .split_once(['-', '–'])
            .is_some_and(|(a, b)| number(a).is_some() && number(b).is_some())
}

fn is_unit(word: &str) -> bool {
    let w = word.trim_end_matches(['.', ',']).to_lowercase();
    Unit::parse(&w).is_some() || OTHER_UNITS.contains(&w.as_str())
}

/// An ingredient line as recipes write it, split into its quantity and the food:
/// "200 g plain flour" -> ("200 g", "plain flour"), "2 large eggs, beaten" -> ("2", "large
/// eggs, beaten"), "1½ tsp salt", "2-3 carrots", "400g tin of tomatoes" -> ("400g tin",
/// "tomatoes"), "Salt and pepper" -> ("", "Salt and pepper").
pub fn split_ingredient(line: &str) -> (String, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut n = 0;
    while n < words.len() {
        let w = words[n];
        if is_amount(w) {
            n += 1;
        } else if n > 0
            && (w == "to" || w == "-" || w == "–")
            && words.get(n + 1).is_some_and(|x| is_amount(x))
        {
            n += 2;
        } else {
            // "200g", "1.5kg": the number and its unit together.
            let split = w
                .char_indices()
                .find(|&(_, c)| c.is_alphabetic())
                .map(|(i, _)| i);
            match split {
                Some(i) if i > 0 && is_amount(&w[..i]) && is_unit(&w[i..]) => n += 1,
                _ => break,
            }
            break;
        }
    }
    if n == 0 {
        return (String::new(), line.trim().to_string());
    }
    if n < words.len() && is_unit(words[n]) {
        n += 1;
        // "8 fl oz"
        if words[n - 1].eq_ignore_ascii_case("fl") && words.get(n).is_some_and(|w| is_unit(w)) {
            n += 1;
        }
    }
    // "400g tin of tomatoes": a container after the amount is part of it.
    if n < words.len() && n + 1 < words.len() && is_unit(words[n]) && words[n + 1] == "of" {
        n += 1;
    }
    let mut rest = &words[n..];
    if rest.first().is_some_and(|w| *w == "of") {
        rest = &rest[1..];
    }
    (
        words[..n].join(" ").trim_end_matches(',').to_string(),
        rest.join(" "),
    )
}

/// Quantities of one food from several recipes, added where their units agree and otherwise
/// joined with ' + ' (the spec's rule), in the order first seen. Empty ones count for nothing;
/// all empty is '1' (the grocery default).
pub fn combine(quantities: &[String]) -> String {
    let mut parts: Vec<(Option<Quantity>, String)> = Vec::new();
    for q in quantities
        .iter()
        .map(|q| q.trim())
        .filter(|q| !q.is_empty())
    {
        let parsed = Quantity::parse(q);
        let merged = parsed.and_then(|p| {
            parts.iter_mut().find_map(|(existing, text)| {
                let sum = (*existing)?.plus(p)?;
                *existing = Some(sum);
                *text = sum.to_string();
                Some(())
            })
        });
        if merged.is_none() {
            let text = parsed.map_or_else(|| q.to_string(), |p| p.to_string());
            parts.push((parsed, text));
        }
    }
    if parts.is_empty() {
        return "1".into();
    }
    parts
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A quantity scaled by `factor` (planned servings over the recipe's); kept as typed when it
/// cannot be read.
pub fn scale(quantity: &str, factor: Amount) -> String {
    match Quantity::parse(quantity).and_then(|q| q.times(factor)) {
        Some(q) => q.to_string(),
        None => quantity.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ingredient_line_splits_into_its_quantity_and_the_food() {
        let cases = [
            ("200 g plain flour", "200 g", "plain flour"),
            ("200g plain flour", "200g", "plain flour"),
            ("2 large eggs, beaten", "2", "large eggs, beaten"),
            ("1½ tsp salt", "1½ tsp", "salt"),
            ("1 1/2 cups milk", "1 1/2 cups", "milk"),
            ("2-3 carrots", "2-3", "carrots"),
            ("2 to 3 carrots", "2 to 3", "carrots"),
            (
                "400g tin of chopped tomatoes",
                "400g tin",
                "chopped tomatoes",
            ),
            ("1 tin of chickpeas", "1 tin", "chickpeas"),
            ("8 oz cheddar, grated", "8 oz", "cheddar, grated"),
            ("8 fl oz milk", "8 fl oz", "milk"),
            ("a pinch of salt", "", "a pinch of salt"),
            ("Salt and pepper", "", "Salt and pepper"),
            ("3 cloves garlic", "3 cloves", "garlic"),
            ("  1.5kg  potatoes ", "1.5kg", "potatoes"),
            ("12", "12", ""),
        ];
        for (line, quantity, food) in cases {
            assert_eq!(
                split_ingredient(line),
                (quantity.to_string(), food.to_string()),
                "{line}"
            );
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_what_recipes_write() {
        for (text, shown) in [
            ("200 g", "200 g"),
            ("200g", "200 g"),
            ("1.5 kg", "1.5 kg"),
            ("1 1/2 cups", "1 1/2 cups"),
            ("½ tsp", "1/2 tsp"),
            ("1½ tbsp", "1 1/2 tbsp"),
            ("3", "3"),
            ("2 cloves", "2 cloves"),
            ("1 clove", "1 clove"),
            ("0.5 l", "500 ml"),
        ] {
            assert_eq!(Quantity::parse(text).unwrap().to_string(), shown, "{text}");
        }
        for text in [
            "to taste",
            "2 large",
            "a handful",
            "1/0 cup",
            "",
            "99999999999 g",
        ] {
            assert!(Quantity::parse(text).is_none(), "{text}");
        }
    }

    #[test]
    fn the_issues_examples_add_up() {
        assert_eq!(combine(&strings(&["200 g", "100 g"])), "300 g");
        assert_eq!(combine(&strings(&["1 cup", "1/2 cup"])), "1 1/2 cups");
        assert_eq!(combine(&strings(&["1 kg", "250 g"])), "1.25 kg");
        assert_eq!(combine(&strings(&["1/3 cup", "2/3 cup"])), "1 cup");
        assert_eq!(combine(&strings(&["2", "3"])), "5");
    }

    #[test]
    fn different_units_and_words_are_joined_as_the_spec_says() {
        assert_eq!(
            combine(&strings(&["200 g", "2 tbsp", "100 g"])),
            "300 g + 2 tbsp"
        );
        assert_eq!(
            combine(&strings(&["a handful", "2 handfuls"])),
            "a handful + 2 handfuls"
        );
        assert_eq!(combine(&strings(&["", "  "])), "1");
        assert_eq!(combine(&strings(&["to taste"])), "to taste");
    }

    #[test]
    fn scaling_for_planned_servings() {
        let double = Amount::new(2, 1).unwrap();
        let half = Amount::new(1, 2).unwrap();
        assert_eq!(scale("300 g", double), "600 g");
        assert_eq!(scale("1 cup", half), "1/2 cup");
        assert_eq!(scale("3", Amount::new(4, 3).unwrap()), "4");
        assert_eq!(scale("a pinch of salt", double), "a pinch of salt");
        assert_eq!(scale("1 egg", double), "1 egg", "unknown unit: as typed");
    }

    #[test]
    fn odd_fractions_become_decimals_and_nothing_overflows() {
        assert_eq!(Quantity::parse("1/7 cup").unwrap().to_string(), "0.14 cup");
        let big = Quantity::parse("999999999 g").unwrap();
        assert!(big.times(Amount::whole(i64::MAX)).is_none());
    }
}
