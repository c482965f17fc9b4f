//! A fake Ollama server that speaks the real HTTP API (docs/api.md in ollama/ollama), for the
//! integration tests (`FakeOllama::start`) and, as the `fake_ollama` example, the browser tests.
//!
//! The requested model name picks how it answers (the part before ':', so a test chooses through
//! the server's `ollama_model` setting):
//! - `good`, and any name not below: recipes at once, streamed in ~5 chunks.
//! - `slow`: the same recipes in ~20 chunks over about 3 seconds, the first at once.
//! - `malformed`: the recipes document cut off halfway, so not JSON.
//! - `stringfields`: `ingredients` as a JSON string holding the array, an ingredient that is not
//!   an object, `estimatedCost` as an object in one recipe, and a recipe with fields missing.
//! - `missing`: 404 "model not found", and not in `/api/tags`.
//! - `hang`: reads the request and never answers, until the server stops.
//! - `allergens`: three recipes, one hiding peanut and milk under other names ("Groundnut
//!   sauce", "satay", "Parmigiano").
//!
//! `good` and `slow` answer with as many recipes as a `Number of recipes: N` line in the last user
//! message (or prompt) asks for, 1 to 5, else 3; the other modes always give their three.

// Included by the test crate and by the example, each using a different part of it.
#![allow(dead_code)]

use std::convert::Infallible;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use futures_util::stream;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::watch;

/// Larger request bodies get a 413; ours are a few KiB.
const MAX_BODY: usize = 1 << 20;

/// The models `/api/tags` lists: every mode but `missing`.
const LISTED_MODELS: [&str; 6] = [
    "good",
    "slow",
    "malformed",
    "stringfields",
    "hang",
    "allergens",
];

/// How long `slow` takes in all, spread evenly between its chunks.
const SLOW_TOTAL: Duration = Duration::from_secs(3);
const SLOW_CHUNKS: usize = 20;
const CHUNKS: usize = 5;

type Body = UnsyncBoxBody<Bytes, Infallible>;

/// A running fake Ollama. Dropping it stops the server and closes every connection.
pub struct FakeOllama {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub url: String,
    pub addr: SocketAddr,
    state: Arc<State>,
    stop: watch::Sender<bool>,
}

/// One request as the fake saw it. Fields a request did not carry are empty.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// `model` from the JSON body (or `name`, which older clients send to `/api/show`).
    pub model: Option<String>,
    /// Whether a chat or generate answer was asked for as a stream (Ollama's default: yes).
    /// False for other endpoints.
    pub stream: bool,
    /// `format` as sent: a JSON schema object, `"json"`, or None when absent or null.
    pub format: Option<Value>,
    pub options: Option<Value>,
    /// Chat: the messages as sent. Generate: the `system` text (if any) then the prompt as "user".
    pub messages: Vec<RecordedMessage>,
    /// The last user message (chat) or the prompt (generate).
    pub prompt: String,
    /// Every message's content joined by blank lines: all the text the model was given.
    pub text: String,
    /// The whole body, when it was JSON.
    pub body: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMessage {
    pub role: String,
    pub content: String,
}

impl FakeOllama {
    /// Serves on 127.0.0.1 at a port the system picks.
    pub async fn start() -> FakeOllama {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind the fake Ollama to 127.0.0.1:0");
        FakeOllama::start_on(listener).await
    }

    /// Serves on a listener the caller bound, in a tokio task, until dropped.
    pub async fn start_on(listener: TcpListener) -> FakeOllama {
        let mut addr = listener
            .local_addr()
            .expect("the fake Ollama's listener has an address");
        // A client cannot connect to 0.0.0.0 everywhere; the loopback of the same family works.
        if addr.ip().is_unspecified() {
            addr.set_ip(match addr {
                SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
            });
        }
        let state = Arc::new(State::default());
        let (stop, stopped) = watch::channel(false);
        tokio::spawn(serve(listener, state.clone(), stopped));
        FakeOllama {
            url: format!("http://{addr}"),
            addr,
            state,
            stop,
        }
    }

    /// Every request seen so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.requests().clone()
    }
}

impl Drop for FakeOllama {
    fn drop(&mut self) {
        self.stop.send_replace(true);
    }
}

#[derive(Default)]
struct State {
    requests: Mutex<Vec<RecordedRequest>>,
}

impl State {
    fn requests(&self) -> MutexGuard<'_, Vec<RecordedRequest>> {
        // A test that panicked while holding the lock must not hide the requests from the next.
        self.requests.lock().unwrap_or_else(|e| e.into_inner())
    }
}

async fn serve(listener: TcpListener, state: Arc<State>, mut stopped: watch::Receiver<bool>) {
    loop {
        let socket = tokio::select! {
            _ = stop_requested(&mut stopped) => return,
            accepted = listener.accept() => match accepted {
                Ok((socket, _)) => socket,
                // Out of file descriptors and the like: wait, as real servers do, not spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let state = state.clone();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(state.clone(), req));
            let builder = auto::Builder::new(TokioExecutor::new());
            let connection = builder.serve_connection(TokioIo::new(socket), service);
            // Stopping drops the connection, with any `hang` or `slow` answer on it.
            tokio::select! {
                _ = connection => {}
                _ = stop_requested(&mut stopped) => {}
            }
        });
    }
}

/// Resolves once the server is to stop (or its handle is gone). The `Ref` that `wait_for` yields
/// is not `Send`, so it is dropped here rather than held in a `select!` across an await.
async fn stop_requested(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

/// The body of `/api/chat`, `/api/generate` and `/api/show`. Options rather than defaults, so
/// that an explicit null is accepted as Go's Ollama does.
#[derive(Deserialize)]
struct ApiRequest {
    model: Option<String>,
    name: Option<String>,
    messages: Option<Vec<InMessage>>,
    prompt: Option<String>,
    system: Option<String>,
    stream: Option<bool>,
    format: Option<Value>,
    options: Option<Value>,
}

#[derive(Deserialize)]
struct InMessage {
    role: Option<String>,
    content: Option<String>,
}

impl ApiRequest {
    fn model(&self) -> String {
        let model = self.model.as_deref().unwrap_or_default();
        if model.is_empty() {
            self.name.clone().unwrap_or_default()
        } else {
            model.to_string()
        }
    }

    fn messages(&self) -> Vec<RecordedMessage> {
        let mut out: Vec<RecordedMessage> = self
            .messages
            .iter()
            .flatten()
            .map(|m| RecordedMessage {
                role: m.role.clone().unwrap_or_default(),
                content: m.content.clone().unwrap_or_default(),
            })
            .collect();
        if let Some(system) = self.system.as_ref().filter(|s| !s.is_empty()) {
            out.insert(0, message("system", system));
        }
        if let Some(prompt) = &self.prompt {
            out.push(message("user", prompt));
        }
        out
    }
}

fn message(role: &str, content: &str) -> RecordedMessage {
    RecordedMessage {
        role: role.into(),
        content: content.into(),
    }
}

#[derive(Clone, Copy)]
enum Endpoint {
    Chat,
    Generate,
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let mut record = RecordedRequest {
        method: method.to_string(),
        path: path.clone(),
        model: None,
        stream: false,
        format: None,
        options: None,
        messages: Vec::new(),
        prompt: String::new(),
        text: String::new(),
        body: None,
    };
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(body) => body.to_bytes(),
        Err(e) => {
            state.requests().push(record);
            return Ok(if e.is::<LengthLimitError>() {
                error(StatusCode::PAYLOAD_TOO_LARGE, "request body too large")
            } else {
                error(StatusCode::BAD_REQUEST, "could not read the request body")
            });
        }
    };

    let endpoint = match (&method, path.as_str()) {
        (&Method::GET | &Method::HEAD, "/") => {
            state.requests().push(record);
            return Ok(text(StatusCode::OK, "Ollama is running"));
        }
        (&Method::GET | &Method::HEAD, "/api/tags") => {
            state.requests().push(record);
            return Ok(json_response(StatusCode::OK, &tags()));
        }
        (&Method::GET | &Method::HEAD, "/api/version") => {
            state.requests().push(record);
            return Ok(json_response(StatusCode::OK, &json!({"version": "0.6.0"})));
        }
        (&Method::POST, "/api/chat") => Some(Endpoint::Chat),
        (&Method::POST, "/api/generate") => Some(Endpoint::Generate),
        (&Method::POST, "/api/show") => None,
        _ => {
            state.requests().push(record);
            return Ok(text(StatusCode::NOT_FOUND, "404 page not found"));
        }
    };

    // Parsed as a Value first so that the record keeps a body the typed parse rejects.
    let parsed = serde_json::from_slice::<Value>(&body)
        .map_err(|e| e.to_string())
        .and_then(|value| {
            record.body = Some(value.clone());
            serde_json::from_value::<ApiRequest>(value).map_err(|e| e.to_string())
        });
    let api = match parsed {
        Ok(api) => api,
        Err(e) => {
            state.requests().push(record);
            let msg = if body.is_empty() {
                "missing request body".to_string()
            } else {
                format!("invalid request body: {e}")
            };
            return Ok(error(StatusCode::BAD_REQUEST, &msg));
        }
    };

    let model = api.model();
    record.model = Some(model.clone()).filter(|m| !m.is_empty());
    record.format = api.format.clone().filter(|f| !f.is_null());
    record.options = api.options.clone().filter(|o| !o.is_null());
    record.messages = api.messages();
    record.text = record
        .messages
        .iter()
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    record.prompt = record
        .messages
        .iter()
        .rev()
        .find(|m| m.role == "user")
        .map(|m| m.content.clone())
        .unwrap_or_default();
    let stream = api.stream.unwrap_or(true);
    if endpoint.is_some() {
        record.stream = stream;
    }
    let prompt = record.prompt.clone();
    state.requests().push(record);

    if model.is_empty() {
        return Ok(error(StatusCode::BAD_REQUEST, "model is required"));
    }
    let mode = Mode::of(&model);
    let Some(endpoint) = endpoint else {
        return Ok(show(&model, mode));
    };
    if !format_is_valid(api.format.as_ref()) {
        return Ok(error(
            StatusCode::BAD_REQUEST,
            "invalid format: expected \"json\" or a valid JSON schema",
        ));
    }
    match mode {
        Mode::Missing => {
            // Go's %q, which a JSON string matches for ordinary names.
            let quoted = Value::from(model.as_str()).to_string();
            let msg = format!("model {quoted} not found, try pulling it first");
            return Ok(error(StatusCode::NOT_FOUND, &msg));
        }
        // Pending until the connection is dropped, which only stops this request.
        Mode::Hang => std::future::pending::<()>().await,
        _ => {}
    }

    let content = recipes_content(mode, recipe_count(&prompt));
    let slow = matches!(mode, Mode::Slow);
    let pieces = split(&content, if slow { SLOW_CHUNKS } else { CHUNKS });
    if stream {
        let gap = if slow {
            SLOW_TOTAL / SLOW_CHUNKS as u32
        } else {
            Duration::ZERO
        };
        return Ok(ndjson_response(endpoint, model, pieces, gap));
    }
    if slow {
        tokio::time::sleep(SLOW_TOTAL).await;
    }
    let whole = answer(endpoint, &model, &content, Some(pieces.len()));
    Ok(json_response(StatusCode::OK, &whole))
}

/// Real Ollama takes `"json"`, a JSON schema object, or nothing.
fn format_is_valid(format: Option<&Value>) -> bool {
    match format {
        None | Some(Value::Null | Value::Object(_)) => true,
        Some(Value::String(s)) => s.is_empty() || s == "json",
        Some(_) => false,
    }
}

/// One chat or generate object: a chunk while `done` is None, else the final one, which carries
/// the statistics (`ollama-rs` reads the final fields only when all six are present).
fn answer(endpoint: Endpoint, model: &str, content: &str, done: Option<usize>) -> Value {
    let mut out = json!({"model": model, "created_at": now_rfc3339()});
    match endpoint {
        Endpoint::Chat => out["message"] = json!({"role": "assistant", "content": content}),
        Endpoint::Generate => out["response"] = json!(content),
    }
    out["done"] = json!(done.is_some());
    if let Some(eval_count) = done {
        let stats = json!({
            "done_reason": "stop",
            "total_duration": 1,
            "load_duration": 1,
            "prompt_eval_count": 1,
            "prompt_eval_duration": 1,
            "eval_count": eval_count,
            "eval_duration": 1,
        });
        if let (Some(out), Value::Object(stats)) = (out.as_object_mut(), stats) {
            out.extend(stats);
        }
    }
    out
}

fn show(model: &str, mode: Mode) -> Response<Body> {
    if matches!(mode, Mode::Missing) {
        // /api/show words it differently from chat and generate.
        return error(StatusCode::NOT_FOUND, &format!("model '{model}' not found"));
    }
    json_response(
        StatusCode::OK,
        &json!({
            "license": "",
            "modelfile": format!("# Modelfile generated by the fake Ollama\nFROM {model}\n"),
            "parameters": "",
            "template": "{{ .Prompt }}",
            "details": details(),
            "model_info": {"general.architecture": "llama", "llama.context_length": 131072},
            "capabilities": ["completion"],
            "modified_at": "2025-01-01T00:00:00Z",
        }),
    )
}

fn tags() -> Value {
    let models: Vec<Value> = LISTED_MODELS
        .iter()
        .map(|name| {
            let name = format!("{name}:latest");
            json!({
                "name": name,
                "model": name,
                "modified_at": "2025-01-01T00:00:00Z",
                "size": 1,
                "digest": "abc",
                "details": details(),
            })
        })
        .collect();
    json!({ "models": models })
}

fn details() -> Value {
    json!({
        "parent_model": "",
        "format": "gguf",
        "family": "llama",
        "families": ["llama"],
        "parameter_size": "3B",
        "quantization_level": "Q4_K_M",
    })
}

// ---------------------------------------------------------------------------------------------
// Responses.

fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed_unsync()
}

fn with_type(status: StatusCode, body: Body, content_type: &'static str) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn text(status: StatusCode, body: &'static str) -> Response<Body> {
    with_type(status, full(body), "text/plain; charset=utf-8")
}

fn json_response(status: StatusCode, value: &Value) -> Response<Body> {
    with_type(
        status,
        full(value.to_string()),
        "application/json; charset=utf-8",
    )
}

fn error(status: StatusCode, msg: &str) -> Response<Body> {
    json_response(status, &json!({ "error": msg }))
}

/// The pieces as chunk lines then the final line, one frame each: the first at once and the
/// others `gap` apart, each stamped when sent.
fn ndjson_response(
    endpoint: Endpoint,
    model: String,
    pieces: Vec<String>,
    gap: Duration,
) -> Response<Body> {
    let eval_count = pieces.len();
    let lines = pieces.into_iter().map(Some).chain([None]);
    let frames = stream::unfold((lines, true), move |(mut lines, first)| {
        let model = model.clone();
        async move {
            let piece = lines.next()?;
            if !first && !gap.is_zero() {
                tokio::time::sleep(gap).await;
            }
            let line = match piece {
                Some(piece) => answer(endpoint, &model, &piece, None),
                None => answer(endpoint, &model, "", Some(eval_count)),
            };
            let mut line = line.to_string();
            line.push('\n');
            Some((Ok(Frame::data(Bytes::from(line))), (lines, false)))
        }
    });
    with_type(
        StatusCode::OK,
        StreamBody::new(frames).boxed_unsync(),
        "application/x-ndjson",
    )
}

/// About `n` pieces of equal length, cut between characters.
fn split(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = chars.len().div_ceil(n.max(1)).max(1);
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

/// UTC now as `2025-01-01T12:34:56.123456789Z`, like Ollama's `created_at`.
fn now_rfc3339() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:09}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        now.subsec_nanos()
    )
}

// ---------------------------------------------------------------------------------------------
// What the "model" says.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Good,
    Slow,
    Malformed,
    StringFields,
    Missing,
    Hang,
    Allergens,
}

impl Mode {
    fn of(model: &str) -> Mode {
        let name = model.split(':').next().unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "slow" => Mode::Slow,
            "malformed" => Mode::Malformed,
            "stringfields" => Mode::StringFields,
            "missing" => Mode::Missing,
            "hang" => Mode::Hang,
            "allergens" => Mode::Allergens,
            _ => Mode::Good,
        }
    }
}

/// The N of a `Number of recipes: N` line, held to 1..=5; 3 without one.
fn recipe_count(prompt: &str) -> usize {
    const KEY: &str = "number of recipes";
    let asked = prompt.lines().find_map(|line| {
        // ASCII lowercasing keeps byte offsets, so `at` indexes `line` too.
        let at = line.to_ascii_lowercase().find(KEY)? + KEY.len();
        let digits: String = line[at..]
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<usize>().ok()
    });
    asked.map_or(3, |n| n.clamp(1, 5))
}

/// The model's message: a `{"recipes": [...]}` document, or for `malformed` half of one.
fn recipes_content(mode: Mode, count: usize) -> String {
    let recipes = match mode {
        Mode::StringFields => string_field_recipes(),
        Mode::Allergens => allergen_recipes(),
        Mode::Good | Mode::Slow | Mode::Malformed | Mode::Missing | Mode::Hang => {
            let set = clean_recipes();
            (0..count)
                .map(|i| {
                    let mut recipe = set[i % set.len()].clone();
                    let round = i / set.len();
                    if round > 0 {
                        let title = recipe["title"].as_str().unwrap_or_default();
                        recipe["title"] = json!(format!("{title} ({})", round + 1));
                    }
                    recipe
                })
                .collect()
        }
    };
    let content = json!({ "recipes": recipes }).to_string();
    if mode == Mode::Malformed {
        // As when a model runs out of tokens: cut off mid-document.
        let half = content.chars().count() / 2;
        return content.chars().take(half).collect();
    }
    content
}

/// Three child-friendly recipes with none of the 14 allergens named anywhere in them (tests
/// check for the words, so none of milk, butter, cheese, egg, flour, bread, pasta, soy, nuts,
/// sesame, fish, celery, mustard, wine, not even in the instructions or tips). "min", not
/// "minutes": a test matching substrings would find "nut" in it.
fn clean_recipes() -> Vec<Value> {
    vec![
        json!({
            "title": "Chicken and Vegetable Rice",
            "description": "Soft rice with diced chicken, carrot and peas, cooked in one pan.",
            "ingredients": [
                {"name": "Chicken breast", "quantity": "200 g"},
                {"name": "Long-grain rice", "quantity": "150 g"},
                {"name": "Carrot", "quantity": "1 medium, diced"},
                {"name": "Frozen peas", "quantity": "80 g"},
                {"name": "Olive oil", "quantity": "1 tbsp"},
                {"name": "Water", "quantity": "400 ml"},
                {"name": "Salt", "quantity": "1 small pinch"}
            ],
            "instructions": [
                "Dice the chicken and the carrot small.",
                "Warm the olive oil in a pan and cook the chicken for 5 min, stirring.",
                "Add the rice, carrot and water, cover and simmer for 15 min.",
                "Stir in the peas and cook for 5 min more, until the rice is soft.",
                "Season lightly and let it cool a little before serving."
            ],
            "preparationTime": 10,
            "cookingTime": 25,
            "difficulty": "easy",
            "servings": 4,
            "dietaryRestrictions": [],
            "allergies": [],
            "estimatedCost": 4.5,
            "nutritionalInfo": {"calories": 320, "protein": 22, "carbs": 45, "fat": 6},
            "tips": [
                "Cut the chicken small enough for little hands.",
                "Leftovers keep for two days in the fridge."
            ],
            "substitutions": [
                {"ingredient": "Chicken breast", "alternatives": ["Turkey breast", "Chickpeas"]},
                {"ingredient": "Frozen peas", "alternatives": ["Sweetcorn", "Green beans"]}
            ]
        }),
        json!({
            "title": "Sweet Potato and Lentil Mash",
            "description": "A smooth, mildly spiced mash of sweet potato and red lentils.",
            "ingredients": [
                {"name": "Sweet potato", "quantity": "2 medium"},
                {"name": "Red lentils", "quantity": "100 g"},
                {"name": "Carrot", "quantity": "1 small"},
                {"name": "Olive oil", "quantity": "1 tsp"},
                {"name": "Ground cumin", "quantity": "1/2 tsp"},
                {"name": "Water", "quantity": "500 ml"}
            ],
            "instructions": [
                "Peel and dice the sweet potato and the carrot.",
                "Rinse the lentils well under cold water.",
                "Simmer everything in the water for 20 min, until soft.",
                "Drain any extra water, add the olive oil and cumin, and mash until smooth."
            ],
            "preparationTime": 10,
            "cookingTime": 20,
            "difficulty": "easy",
            "servings": 4,
            "dietaryRestrictions": ["vegetarian", "vegan"],
            "allergies": [],
            "estimatedCost": 2.8,
            "nutritionalInfo": {"calories": 210, "protein": 9, "carbs": 38, "fat": 3},
            "tips": [
                "Leave it a little lumpy for older toddlers.",
                "Freezes well in small portions."
            ],
            "substitutions": [
                {"ingredient": "Red lentils", "alternatives": ["Yellow split peas"]}
            ]
        }),
        json!({
            "title": "Beef and Vegetable Stew",
            "description": "A gentle stew of tender beef, potato, carrot and peas in a tomato sauce.",
            "ingredients": [
                {"name": "Diced beef", "quantity": "300 g"},
                {"name": "Potatoes", "quantity": "2 medium, diced"},
                {"name": "Carrots", "quantity": "2, sliced"},
                {"name": "Frozen peas", "quantity": "80 g"},
                {"name": "Chopped tomatoes", "quantity": "400 g tin"},
                {"name": "Olive oil", "quantity": "1 tbsp"},
                {"name": "Dried thyme", "quantity": "1/2 tsp"},
                {"name": "Water", "quantity": "300 ml"}
            ],
            "instructions": [
                "Brown the beef in the olive oil over a medium heat.",
                "Add the potatoes, carrots, tomatoes, thyme and water.",
                "Cover and simmer gently for an hour, until the beef is tender.",
                "Stir in the peas for the last 5 min.",
                "Cut the beef up small for younger children before serving."
            ],
            "preparationTime": 15,
            "cookingTime": 65,
            "difficulty": "moderate",
            "servings": 4,
            "dietaryRestrictions": [],
            "allergies": [],
            "estimatedCost": 6.2,
            "nutritionalInfo": {"calories": 340, "protein": 28, "carbs": 30, "fat": 11},
            "tips": ["Slow cooking makes the beef soft enough for small children to chew."],
            "substitutions": [
                {"ingredient": "Diced beef", "alternatives": ["Lamb", "Chicken thighs"]}
            ]
        }),
    ]
}

/// The clean recipes in the shapes small models produce: `ingredients` as a JSON string, an
/// ingredient that is a number or bare text, `estimatedCost` as an object, fields left out.
fn string_field_recipes() -> Vec<Value> {
    let mut recipes = clean_recipes();
    for (i, recipe) in recipes.iter_mut().enumerate() {
        let mut ingredients = recipe["ingredients"].take();
        if i == 1 {
            if let Some(list) = ingredients.as_array_mut() {
                list.push(json!(42));
                list.push(json!("just text"));
            }
            recipe["estimatedCost"] = json!(4.2);
        }
        recipe["ingredients"] = Value::String(ingredients.to_string());
    }
    recipes[0]["estimatedCost"] = json!({"amount": 3.5, "currency": "GBP"});
    if let Some(last) = recipes[2].as_object_mut() {
        for field in ["tips", "substitutions", "cookingTime"] {
            last.remove(field);
        }
    }
    recipes
}

/// One recipe whose peanut and milk go by other names and are not declared, then two clean ones.
fn allergen_recipes() -> Vec<Value> {
    let clean = clean_recipes();
    vec![
        json!({
            "title": "Chicken Satay Rice Bowl",
            "description": "Strips of chicken in a mild satay sauce over rice, finished with a little Parmigiano.",
            "ingredients": [
                {"name": "Chicken thighs", "quantity": "250 g"},
                {"name": "Groundnut sauce", "quantity": "3 tbsp"},
                {"name": "Long-grain rice", "quantity": "150 g"},
                {"name": "Cucumber", "quantity": "1/2, in sticks"},
                {"name": "Parmigiano, finely grated", "quantity": "20 g"},
                {"name": "Lime", "quantity": "1/2"}
            ],
            "instructions": [
                "Cook the rice as the packet says.",
                "Slice the chicken into strips and cook in a hot pan for 8 min.",
                "Stir in the groundnut sauce and warm through.",
                "Serve over the rice with cucumber sticks, a squeeze of lime and the Parmigiano."
            ],
            "preparationTime": 10,
            "cookingTime": 20,
            "difficulty": "easy",
            "servings": 3,
            "dietaryRestrictions": [],
            "allergies": [],
            "estimatedCost": 5.1,
            "nutritionalInfo": {"calories": 410, "protein": 27, "carbs": 48, "fat": 12},
            "tips": ["Thin the sauce with a little warm water for younger children."],
            "substitutions": [
                {"ingredient": "Chicken thighs", "alternatives": ["Turkey breast"]}
            ]
        }),
        clean[0].clone(),
        clean[1].clone(),
    ]
}
