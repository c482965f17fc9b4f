//! The Ollama generator: asks a local model through ollama-rs for recipes as structured JSON
//! (the `format` field holds the JSON schema of the recipe list), streamed so progress can be
//! reported, bounded by `timeout_secs`. The answer is normalised and screened; when a recipe
//! breaks a rule, the model is asked once more with a stricter prompt.

use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use ollama_rs::Ollama;
use ollama_rs::error::OllamaError;
use ollama_rs::generation::chat::ChatMessage;
use ollama_rs::generation::chat::request::ChatMessageRequest;
use ollama_rs::generation::parameters::{FormatType, JsonStructure};
use schemars::Schema;
use serde_json::json;
use tokio::time::Instant;

use super::{
    GenerateError, Outcome, Progress, ProgressFn, RecipeGenerator, Status, normalise, screen,
};
use crate::domain::food_safety;
use crate::domain::recipe::GenerateRequest;
use crate::domain::recipe_guard::{Guard, Withheld};

/// About how many characters of JSON one recipe takes, for progress.
const CHARS_PER_RECIPE: usize = 1_800;
/// A model that loops is cut off here (five recipes take about 10 kB).
const ANSWER_MAX: usize = 256 * 1024;
/// How long a status check may take.
const STATUS_TIMEOUT: Duration = Duration::from_secs(3);

pub struct OllamaGenerator {
    client: Option<Ollama>,
    url: String,
    model: String,
    timeout: Duration,
    currency: String,
}

impl OllamaGenerator {
    pub fn new(url: &str, model: &str, timeout: Duration, currency: &str) -> OllamaGenerator {
        OllamaGenerator {
            // The settings check the URL; a bad one still only makes the generator unavailable.
            client: Ollama::try_new(url).ok(),
            url: url.to_string(),
            model: model.to_string(),
            timeout,
            currency: currency.to_string(),
        }
    }

    fn client(&self) -> Result<&Ollama, GenerateError> {
        self.client
            .as_ref()
            .ok_or_else(|| GenerateError::Unreachable {
                detail: format!("{} is not a usable address", self.url),
            })
    }

    /// One request to the model; the whole answer as text.
    async fn ask(
        &self,
        prompt: String,
        deadline: Instant,
        progress: ProgressFn<'_>,
        expected: usize,
    ) -> Result<String, GenerateError> {
        let client = self.client()?;
        let timeout = GenerateError::Timeout {
            secs: self.timeout.as_secs(),
        };
        let request = ChatMessageRequest::new(
            self.model.clone(),
            vec![
                ChatMessage::system(SYSTEM.into()),
                ChatMessage::user(prompt),
            ],
        )
        .format(FormatType::StructuredJson(Box::new(
            JsonStructure::new_for_schema(schema()),
        )));
        let mut stream = match tokio::time::timeout_at(
            deadline,
            client.send_chat_messages_stream(request),
        )
        .await
        {
            Err(_) => return Err(timeout),
            Ok(Err(e)) => return Err(self.failure(e)),
            Ok(Ok(s)) => s,
        };
        let mut answer = String::new();
        loop {
            match tokio::time::timeout_at(deadline, stream.next()).await {
                Err(_) => return Err(timeout),
                Ok(None) => break,
                Ok(Some(Err(()))) => {
                    return Err(GenerateError::Unreachable {
                        detail: "the connection to the Ollama server broke off".into(),
                    });
                }
                Ok(Some(Ok(chunk))) => {
                    answer.push_str(&chunk.message.content);
                    if answer.len() > ANSWER_MAX {
                        return Err(GenerateError::Unusable {
                            detail: format!("the answer ran past {ANSWER_MAX} bytes"),
                        });
                    }
                    progress(Progress {
                        received: answer.len(),
                        expected,
                    });
                    if chunk.done {
                        break;
                    }
                }
            }
        }
        Ok(answer)
    }

    fn failure(&self, e: OllamaError) -> GenerateError {
        match e {
            OllamaError::Other(body) if body.contains("not found") => GenerateError::ModelMissing {
                model: self.model.clone(),
            },
            OllamaError::ReqwestError(e) => GenerateError::Unreachable {
                detail: if e.is_connect() {
                    format!("nothing answers at {}", self.url)
                } else {
                    e.to_string()
                },
            },
            other => GenerateError::Unreachable {
                detail: other.to_string(),
            },
        }
    }

    async fn generate_inner(
        &self,
        request: &GenerateRequest,
        guard: &Guard,
        progress: ProgressFn<'_>,
    ) -> Result<Outcome, GenerateError> {
        let deadline = Instant::now() + self.timeout;
        let expected = CHARS_PER_RECIPE * request.count as usize;
        let answer = self
            .ask(prompt(request, guard, None), deadline, progress, expected)
            .await?;
        let (recipes, _) = normalise::recipes(&answer, request.difficulty, &self.currency)
            .map_err(|detail| GenerateError::Unusable { detail })?;
        if recipes.is_empty() {
            return Err(GenerateError::Unusable {
                detail: "the answer held no usable recipe".into(),
            });
        }
        let (mut kept, withheld) = screen(guard, recipes);
        let mut final_withheld = withheld.clone();
        if !withheld.is_empty() {
            // Once more, naming what went wrong; the stricter answer replaces what was withheld.
            let progress_again = |p: Progress| {
                progress(Progress {
                    received: expected / 2 + p.received / 2,
                    expected,
                })
            };
            let again = self
                .ask(
                    prompt(request, guard, Some(&withheld)),
                    deadline,
                    &progress_again,
                    expected,
                )
                .await;
            if let Ok(answer) = again
                && let Ok((recipes, _)) =
                    normalise::recipes(&answer, request.difficulty, &self.currency)
            {
                let (more, still) = screen(guard, recipes);
                let room = (request.count as usize).saturating_sub(kept.len());
                kept.extend(
                    more.into_iter()
                        .filter(|r| !kept.iter().any(|k| k.title == r.title))
                        .take(room)
                        .collect::<Vec<_>>(),
                );
                final_withheld = still;
                final_withheld.extend(withheld);
            }
        }
        kept.truncate(request.count as usize);
        if kept.is_empty() {
            return Err(GenerateError::AllWithheld {
                withheld: final_withheld,
            });
        }
        let notes = guard
            .unchecked()
            .iter()
            .map(|u| format!("\"{u}\" could not be checked automatically."))
            .collect();
        Ok(Outcome {
            recipes: kept,
            withheld: final_withheld,
            notes,
        })
    }
}

impl RecipeGenerator for OllamaGenerator {
    fn name(&self) -> &'static str {
        "ollama"
    }

    fn generate<'a>(
        &'a self,
        request: &'a GenerateRequest,
        guard: &'a Guard,
        progress: ProgressFn<'a>,
    ) -> BoxFuture<'a, Result<Outcome, GenerateError>> {
        Box::pin(self.generate_inner(request, guard, progress))
    }

    fn status(&self) -> BoxFuture<'_, Status> {
        Box::pin(async move {
            let client = match self.client() {
                Ok(c) => c,
                Err(e) => return Status::Unavailable(e),
            };
            let models =
                match tokio::time::timeout(STATUS_TIMEOUT, client.list_local_models()).await {
                    Err(_) => {
                        return Status::Unavailable(GenerateError::Unreachable {
                            detail: format!("{} did not answer", self.url),
                        });
                    }
                    Ok(Err(e)) => return Status::Unavailable(self.failure(e)),
                    Ok(Ok(models)) => models,
                };
            let wanted = with_tag(&self.model);
            if models.iter().any(|m| with_tag(&m.name) == wanted) {
                Status::Ok
            } else {
                Status::Unavailable(GenerateError::ModelMissing {
                    model: self.model.clone(),
                })
            }
        })
    }
}

/// "llama3.2" is "llama3.2:latest".
fn with_tag(name: &str) -> String {
    if name.contains(':') {
        name.to_string()
    } else {
        format!("{name}:latest")
    }
}

const SYSTEM: &str = "You are a chef who cooks for young children. You write real, cookable, \
child-friendly recipes with mild flavours, safe textures and clear steps, in British English with \
metric amounts. You answer only with JSON that matches the given schema.";

fn prompt(request: &GenerateRequest, guard: &Guard, withheld: Option<&[Withheld]>) -> String {
    let list = |items: &[String]| {
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join(", ")
        }
    };
    let mut p = format!(
        "Write {count} different recipes.\n\
         Number of recipes: {count}\n\
         Ingredients I have: {ingredients}\n\
         You may add common pantry staples (oil, herbs, spices, stock).\n\
         Servings: {servings}\n\
         Difficulty: {difficulty} ({label})\n\
         Dietary restrictions: {restrictions}\n\
         Allergies (never use these or anything made from them): {allergies}\n\
         Give each recipe: title, description, ingredients (name and quantity), instructions (steps), \
         preparationTime and cookingTime in minutes, difficulty, servings, dietaryRestrictions, allergies, \
         estimatedCost in GBP as a number, nutritionalInfo per serving (calories, protein, carbs, fat), \
         tips and substitutions.",
        count = request.count,
        ingredients = list(&request.ingredients),
        servings = request.servings,
        difficulty = request.difficulty.key(),
        label = request.difficulty.label(),
        restrictions = list(&request.dietary_restrictions),
        allergies = list(&guard_allergies(request, guard)),
    );
    let lang = crate::i18n::scope::current();
    if lang != crate::i18n::Lang::En {
        // The family reads the recipes in their language; the guard reads foods in it too.
        p.push_str(&format!(
            "\n\nWrite every title, description, ingredient name, step, tip and substitution in \
             {}, with metric amounts; keep the JSON field names in English.",
            lang.english_name()
        ));
    }
    if let Some((name, age)) = guard.youngest() {
        // The same rules the recipes are checked against afterwards (their notes per child).
        let rules: Vec<_> = food_safety::rules_at(age).filter(|r| !r.alone).collect();
        if !rules.is_empty() {
            p.push_str(&format!(
                "\n\nThe youngest child who will eat this is {name}, {}. Make every recipe safe \
                 for {name}, and say in the tips how to serve it at that age:\n",
                age.label()
            ));
            for rule in rules {
                p.push_str(&format!("- {}\n", rule.advice));
            }
        }
    }
    if let Some(withheld) = withheld {
        p.push_str(
            "\n\nSTRICT: your last answer broke the allergy rules, so it could not be shown:\n",
        );
        for w in withheld {
            p.push_str(&format!("- {}: {}\n", w.title, w.reasons.join("; ")));
        }
        p.push_str(
            "Do not use any of those foods, nor any sauce, cheese, bread or product made from them, \
             in ingredients, steps, tips or substitutions.",
        );
    }
    p
}

/// The allergies to name: the request's, and what the guard adds (the children's).
fn guard_allergies(request: &GenerateRequest, guard: &Guard) -> Vec<String> {
    let mut out = request.allergies.clone();
    for text in guard.allergy_texts() {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&text)) {
            out.push(text);
        }
    }
    for a in guard.allergens() {
        let label = a.to_string().to_lowercase();
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&label)) {
            out.push(label);
        }
    }
    out
}

/// The JSON schema of the answer: `{recipes: [...]}`.
fn schema() -> Schema {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    let recipe = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "description": {"type": "string"},
            "ingredients": {"type": "array", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "quantity": {"type": "string"}},
                "required": ["name", "quantity"]
            }},
            "instructions": strings,
            "preparationTime": {"type": "integer"},
            "cookingTime": {"type": "integer"},
            "difficulty": {"type": "string", "enum": ["easy", "moderate", "hard"]},
            "servings": {"type": "integer"},
            "dietaryRestrictions": strings,
            "allergies": strings,
            "estimatedCost": {"type": "number"},
            "nutritionalInfo": {"type": "object", "properties": {
                "calories": {"type": "number"}, "protein": {"type": "number"},
                "carbs": {"type": "number"}, "fat": {"type": "number"}
            }, "required": ["calories", "protein", "carbs", "fat"]},
            "tips": strings,
            "substitutions": {"type": "array", "items": {
                "type": "object",
                "properties": {"ingredient": {"type": "string"}, "alternatives": strings},
                "required": ["ingredient", "alternatives"]
            }}
        },
        "required": ["title", "description", "ingredients", "instructions", "preparationTime",
                     "cookingTime", "difficulty", "servings", "estimatedCost", "nutritionalInfo"]
    });
    let root = json!({
        "type": "object",
        "properties": {"recipes": {"type": "array", "items": recipe}},
        "required": ["recipes"]
    });
    Schema::try_from(root).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recipe::{GenerateFields, GenerateRequest};

    #[test]
    fn the_prompt_names_the_count_the_allergies_and_on_retry_what_went_wrong() {
        let request = GenerateRequest::new(GenerateFields {
            ingredients: vec!["Rice".into()],
            allergies: vec!["peanuts".into()],
            count: Some(4),
            ..GenerateFields::default()
        })
        .unwrap();
        let guard = Guard::new(&["peanuts".into(), "dairy".into()], &[]);
        let first = prompt(&request, &guard, None);
        assert!(first.contains("Number of recipes: 4"));
        assert!(first.contains("peanuts") && first.contains("milk"));
        let withheld = [Withheld {
            title: "Satay".into(),
            reasons: vec!["Satay contains peanuts (satay)".into()],
        }];
        assert!(prompt(&request, &guard, Some(&withheld)).contains("STRICT"));
        assert!(!first.contains("Write every title"));
        // A French family's job asks for French recipes (the guard reads French foods).
        let french = crate::i18n::scope::within_sync(crate::i18n::Lang::Fr, || {
            prompt(&request, &guard, None)
        });
        assert!(
            french.contains("step, tip and substitution in French"),
            "{french}"
        );
    }

    #[test]
    fn the_prompt_carries_the_age_rules_of_the_youngest_child() {
        let request = GenerateRequest::new(GenerateFields {
            ingredients: vec!["Grapes".into()],
            ..GenerateFields::default()
        })
        .unwrap();
        let age = |months| {
            Some(food_safety::Age {
                months,
                from_birth_month: true,
            })
        };
        let guard = Guard::default()
            .with_age("Ada", age(40))
            .with_age("Leo", age(9));
        let p = prompt(&request, &guard, None);
        assert!(
            p.contains("The youngest child who will eat this is Leo, 9 months."),
            "{p}"
        );
        assert!(p.contains("No honey, in food or drinks"), "{p}");
        assert!(p.contains("lengthways into quarters"), "{p}");
        assert!(p.contains("Add no salt, stock cubes or gravy"), "{p}");
        // Drink rules are not a recipe's.
        assert!(!p.contains("main drink"), "{p}");
        let older = Guard::default().with_age("Sam", age(80));
        let p = prompt(&request, &older, None);
        assert!(p.contains("Sam, 6 years") && p.contains("swordfish"), "{p}");
        assert!(!p.contains("honey"), "{p}");
        let teen = Guard::default().with_age("Kit", age(200));
        assert!(!prompt(&request, &teen, None).contains("Kit"));
        assert!(!prompt(&request, &Guard::default(), None).contains("youngest"));
    }

    #[test]
    fn the_schema_is_an_object_schema() {
        let s = serde_json::to_value(schema()).unwrap();
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["recipes"]["type"], "array");
        assert_eq!(with_tag("llama3.2"), "llama3.2:latest");
    }
}
