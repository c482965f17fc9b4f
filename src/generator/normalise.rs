//! Reads what a model wrote into recipes, as leniently as the spec asks: ingredients may arrive
//! as a JSON string; entries that cannot be read become name 'Unknown', quantity '0'; the cost is
//! a number or `{amount, currency}`; missing optional fields are dropped. A recipe without a
//! title, ingredients or steps is not a recipe and is skipped. The result is validated like a
//! recipe a parent saves.

use serde_json::Value;

use crate::domain::recipe::{Cost, Difficulty, Ingredient, Nutrition, RecipeContent, Substitution};

/// The recipes in a model's answer (`{"recipes": [...]}`, one recipe, or a bare list), with
/// how many entries had to be skipped. `Err` when the answer is not JSON at all.
pub fn recipes(
    answer: &str,
    difficulty: Difficulty,
    currency: &str,
) -> Result<(Vec<RecipeContent>, usize), String> {
    let value: Value = serde_json::from_str(answer.trim())
        .map_err(|e| format!("the answer is not valid JSON ({e})"))?;
    let list = match value {
        Value::Object(mut o) => match o.remove("recipes").or_else(|| o.remove("recipe")) {
            Some(Value::Array(a)) => a,
            Some(Value::String(s)) => match serde_json::from_str(&s) {
                Ok(Value::Array(a)) => a,
                _ => Vec::new(),
            },
            Some(one @ Value::Object(_)) => vec![one],
            _ => vec![Value::Object(o)],
        },
        Value::Array(a) => a,
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let mut skipped = 0;
    for entry in list {
        match recipe(&entry, difficulty, currency) {
            Some(r) => out.push(r),
            None => skipped += 1,
        }
    }
    Ok((out, skipped))
}

fn recipe(value: &Value, difficulty: Difficulty, currency: &str) -> Option<RecipeContent> {
    let o = value.as_object()?;
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| o.get(*n))
            .filter(|v| !v.is_null())
    };
    let content = RecipeContent {
        title: text(field(&["title", "name"])?)?,
        description: field(&["description", "summary"])
            .and_then(text)
            .unwrap_or_default(),
        ingredients: ingredients(field(&["ingredients"])?),
        instructions: texts(field(&["instructions", "steps", "method"])?),
        preparation_time: field(&["preparationTime", "preparation_time", "prepTime"])
            .and_then(minutes)
            .unwrap_or(0),
        cooking_time: field(&["cookingTime", "cooking_time", "cookTime"]).and_then(minutes),
        difficulty: field(&["difficulty"])
            .and_then(Value::as_str)
            .and_then(Difficulty::parse)
            .unwrap_or(difficulty),
        servings: field(&["servings", "serves"])
            .and_then(minutes)
            .filter(|s| *s > 0),
        dietary_restrictions: field(&[
            "dietaryRestrictions",
            "dietary_restrictions",
            "dietaryInfo",
        ])
        .map(texts)
        .unwrap_or_default(),
        allergies: field(&["allergies"]).map(texts).unwrap_or_default(),
        estimated_cost: field(&["estimatedCost", "estimated_cost", "cost"])
            .and_then(|v| cost(v, currency)),
        nutritional_info: field(&["nutritionalInfo", "nutritional_info", "nutrition"])
            .and_then(nutrition),
        tips: field(&["tips"]).map(texts).unwrap_or_default(),
        substitutions: field(&["substitutions"])
            .map(substitutions)
            .unwrap_or_default(),
    };
    content.validate().ok()
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A list of strings; a single string is split into lines; objects give their text field.
fn texts(v: &Value) -> Vec<String> {
    match v {
        Value::Array(items) => items
            .iter()
            .filter_map(|i| match i {
                Value::Object(o) => ["text", "step", "instruction", "description", "name"]
                    .iter()
                    .find_map(|k| o.get(*k).and_then(text)),
                other => text(other),
            })
            .collect(),
        Value::String(s) => s
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// The spec: a list, or a JSON string holding one; unreadable entries are 'Unknown' / '0'.
fn ingredients(v: &Value) -> Vec<Ingredient> {
    let parsed;
    let items = match v {
        Value::Array(a) => a,
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(a)) => {
                parsed = a;
                &parsed
            }
            _ => {
                return s
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| Ingredient {
                        name: l.trim().to_string(),
                        quantity: String::new(),
                    })
                    .collect();
            }
        },
        _ => return Vec::new(),
    };
    items
        .iter()
        .map(|i| match i {
            Value::Object(o) => {
                let quantity = match (o.get("quantity").or_else(|| o.get("amount")), o.get("unit"))
                {
                    (Some(q), Some(Value::String(unit))) if !unit.is_empty() => {
                        text(q).map(|q| format!("{q} {unit}"))
                    }
                    (Some(q), _) => text(q),
                    _ => None,
                };
                Ingredient {
                    name: o
                        .get("name")
                        .and_then(text)
                        .unwrap_or_else(|| "Unknown".into()),
                    quantity: quantity.unwrap_or_else(|| "0".into()),
                }
            }
            Value::String(s) if !s.trim().is_empty() => Ingredient {
                name: s.trim().to_string(),
                quantity: String::new(),
            },
            _ => Ingredient {
                name: "Unknown".into(),
                quantity: "0".into(),
            },
        })
        .collect()
}

/// Minutes from 15, 15.5, "15", "15 minutes" or "1 hour".
fn minutes(v: &Value) -> Option<u32> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|f| f.is_finite() && *f >= 0.0)
            .map(|f| f.round() as u32),
        Value::String(s) => {
            let digits: String = s.trim().chars().take_while(char::is_ascii_digit).collect();
            let n: u32 = digits.parse().ok()?;
            if s.to_lowercase().contains("hour") {
                n.checked_mul(60)
            } else {
                Some(n)
            }
        }
        _ => None,
    }
}

fn amount(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let cleaned: String = s
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            cleaned.parse().ok()
        }
        _ => None,
    }
    .filter(|f| f.is_finite() && *f >= 0.0)
}

/// A number, `{amount, currency}`, or "£3.50".
fn cost(v: &Value, currency: &str) -> Option<Cost> {
    let (value, code) = match v {
        Value::Object(o) => (
            o.get("amount")?,
            o.get("currency")
                .and_then(Value::as_str)
                .filter(|c| c.len() == 3)
                .map(str::to_uppercase),
        ),
        other => (other, None),
    };
    Some(Cost {
        amount: (amount(value)? * 100.0).round() / 100.0,
        currency: code.unwrap_or_else(|| currency.to_string()),
    })
}

fn nutrition(v: &Value) -> Option<Nutrition> {
    let o = v.as_object()?;
    let get = |k: &str| o.get(k).and_then(amount);
    let n = Nutrition {
        calories: get("calories")?,
        protein: get("protein").unwrap_or(0.0),
        carbs: get("carbs").or_else(|| get("carbohydrates")).unwrap_or(0.0),
        fat: get("fat").unwrap_or(0.0),
    };
    Some(n)
}

fn substitutions(v: &Value) -> Vec<Substitution> {
    let Value::Array(items) = v else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|i| {
            let o = i.as_object()?;
            let ingredient = o
                .get("ingredient")
                .or_else(|| o.get("original"))
                .and_then(text)?;
            let alternatives = match o.get("alternatives").or_else(|| o.get("substitutes"))? {
                Value::String(s) => s.split(',').map(|p| p.trim().to_string()).collect(),
                other => texts(other),
            };
            Some(Substitution {
                ingredient,
                alternatives,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Vec<RecipeContent> {
        recipes(json, Difficulty::Easy, "GBP").unwrap().0
    }

    #[test]
    fn a_well_formed_answer_is_read_in_full() {
        let r = read(
            r#"{"recipes":[{"title":"Rice bowl","description":"Simple","ingredients":[{"name":"Rice","quantity":"100 g"}],
            "instructions":["Cook the rice."],"preparationTime":10,"cookingTime":"15 minutes","difficulty":"Medium",
            "servings":2,"dietaryRestrictions":["Vegan"],"estimatedCost":3.456,
            "nutritionalInfo":{"calories":320,"protein":"8g","carbs":60,"fat":4},
            "tips":["Rinse first"],"substitutions":[{"ingredient":"Rice","alternatives":["Quinoa"]}]}]}"#,
        );
        assert_eq!(r.len(), 1);
        let r = &r[0];
        assert_eq!(r.ingredients[0].quantity, "100 g");
        assert_eq!((r.preparation_time, r.cooking_time), (10, Some(15)));
        assert_eq!(r.difficulty, Difficulty::Moderate);
        assert_eq!(r.estimated_cost.as_ref().unwrap().amount, 3.46);
        assert_eq!(r.nutritional_info.unwrap().protein, 8.0);
        assert_eq!(r.substitutions[0].alternatives, ["Quinoa"]);
    }

    #[test]
    fn ingredients_as_a_json_string_and_unreadable_entries() {
        let r = read(
            r#"{"recipes":[{"title":"Peas","ingredients":"[{\"name\":\"Peas\",\"quantity\":\"80 g\"}, 42, {\"quantity\": 2}]",
            "instructions":"Boil the peas.\nDrain.","estimatedCost":{"amount":"3.5","currency":"gbp"}}]}"#,
        );
        let r = &r[0];
        assert_eq!(r.ingredients.len(), 3);
        assert_eq!(r.ingredients[1].name, "Unknown");
        assert_eq!(r.ingredients[1].quantity, "0");
        assert_eq!(r.ingredients[2].quantity, "2");
        assert_eq!(r.instructions, ["Boil the peas.", "Drain."]);
        let cost = r.estimated_cost.as_ref().unwrap();
        assert_eq!((cost.amount, cost.currency.as_str()), (3.5, "GBP"));
        assert!(r.tips.is_empty() && r.cooking_time.is_none() && r.nutritional_info.is_none());
    }

    #[test]
    fn a_single_recipe_or_a_bare_list_is_read_too() {
        let one = r#"{"title":"Soup","ingredients":[{"name":"Carrot","quantity":"2"}],"instructions":["Simmer."]}"#;
        assert_eq!(read(one).len(), 1);
        assert_eq!(read(&format!("[{one},{one}]")).len(), 2);
    }

    #[test]
    fn recipes_without_title_ingredients_or_steps_are_skipped_and_counted() {
        let (r, skipped) = recipes(
            r#"{"recipes":[{"title":"","ingredients":[],"instructions":[]},{"title":"No steps","ingredients":[{"name":"Rice"}]},"text"]}"#,
            Difficulty::Easy,
            "GBP",
        )
        .unwrap();
        assert!(r.is_empty());
        assert_eq!(skipped, 3);
    }

    #[test]
    fn absurd_numbers_neither_overflow_nor_pass() {
        let r = read(
            r#"[{"title":"Slow","ingredients":[{"name":"Rice"}],"instructions":["Wait."],"preparationTime":"99999999 hours","cookingTime":1e300}]"#,
        );
        assert!(
            r.is_empty(),
            "a cooking time beyond a day is refused: {r:?}"
        );
        let r = read(
            r#"[{"title":"Slow","ingredients":[{"name":"Rice"}],"instructions":["Wait."],"preparationTime":"99999999 hours"}]"#,
        );
        assert_eq!(r[0].preparation_time, 0, "an unreadable time is unknown");
    }

    #[test]
    fn broken_json_is_an_error() {
        assert!(recipes(r#"{"recipes": [{"title": "Pasta"#, Difficulty::Easy, "GBP").is_err());
    }
}
