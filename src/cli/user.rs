//! `highchair user ...` and `highchair messages`: through the running server's admin socket,
//! or directly on the store when the server is stopped.

use crate::i18n::scope::within;
use std::future::Future;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::out::say;
use super::{EXIT_DATA_DIR, EXIT_FAILURE};
use crate::admin::client::{self, Unreachable};
use crate::admin::ops::{self, AddUser, EmailRequest, Message, Removed, ResetLink, UserSummary};
use crate::admin::{Failure, SOCKET};
use crate::app::App;
use crate::config::Settings;

/// Exit code when the admin socket belongs to another user.
pub const EXIT_PERMISSION: u8 = 5;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// List every account.
    List,
    /// Create a parent account. Asks for the password (or reads it from --password-stdin).
    Add(AddArgs),
    /// Print a one-time link (valid 1 hour) that sets a new password and ends other sessions.
    ResetPassword { email: String },
    /// Make an account an admin.
    Promote { email: String },
    /// Delete an account and every record of that family.
    Delete {
        email: String,
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
    },
    /// Remove guest accounts unused for 30 days, with all their data.
    PurgeGuests,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    email: String,
    /// First name.
    #[arg(long = "first", value_name = "NAME")]
    first: String,
    /// Last name.
    #[arg(long = "last", value_name = "NAME", default_value = "")]
    last: String,
    /// mom or dad (mom when not given).
    #[arg(long, value_name = "ROLE", value_parser = ["mom", "dad"])]
    role: Option<String>,
    /// Read the password from the first line of standard input instead of asking.
    #[arg(long)]
    password_stdin: bool,
}

/// How the command reaches the data: the running server, or the store opened here.
pub(super) enum Target {
    Socket(std::path::PathBuf),
    Local(App),
}

impl Target {
    async fn call<B, T, F, Fut>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
        local: F,
    ) -> Result<T, Failure>
    where
        B: Serialize,
        T: DeserializeOwned,
        F: FnOnce(App) -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        match self {
            Target::Socket(socket) => {
                let stream = client::connect(socket).await.map_err(|e| match e {
                    Unreachable::PermissionDenied => permission_denied(socket),
                    Unreachable::NotRunning => {
                        Failure::new(EXIT_FAILURE, "the server stopped while this command ran")
                    }
                    Unreachable::Other(e) => {
                        Failure::new(EXIT_FAILURE, format!("admin socket: {e}"))
                    }
                })?;
                client::call(stream, method, path, body).await
            }
            Target::Local(app) => {
                let result = local(app.clone()).await;
                // Without a server, this process finishes what it queued (cascading deletes).
                crate::jobs::run_pending(app.store()).await.map_err(|e| {
                    Failure::new(EXIT_FAILURE, format!("finishing the removal failed: {e}"))
                })?;
                result
            }
        }
    }
}

pub(super) fn permission_denied(socket: &std::path::Path) -> Failure {
    Failure::new(
        EXIT_PERMISSION,
        format!(
            "no permission to use the admin socket {}; run this as the user that runs highchair (e.g. sudo -u highchair highchair user list)",
            socket.display()
        ),
    )
}

/// Finds the running server's socket, or opens the store when the server is stopped.
pub(super) async fn target(settings: Settings) -> Result<Target, Failure> {
    let socket = settings.storage.data_dir.join(SOCKET);
    match client::connect(&socket).await {
        Ok(_) => return Ok(Target::Socket(socket)),
        Err(Unreachable::PermissionDenied) => return Err(permission_denied(&socket)),
        Err(Unreachable::Other(e)) => {
            return Err(Failure::new(
                EXIT_FAILURE,
                format!("cannot reach the server through {}: {e}", socket.display()),
            ));
        }
        Err(Unreachable::NotRunning) => {}
    }
    match App::new(settings) {
        Ok(app) => Ok(Target::Local(app)),
        Err(crate::store::OpenError::InUse(dir)) => Err(Failure::new(
            EXIT_DATA_DIR,
            format!(
                "the server using {} is running but its admin socket {} is not answering; is it starting or stopping?",
                dir.display(),
                socket.display()
            ),
        )),
        Err(e) => Err(Failure::new(EXIT_DATA_DIR, e.to_string())),
    }
}

pub(super) fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(EXIT_FAILURE, format!("cannot start: {e}")))
}

pub(super) fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("highchair: {}", f.message);
            ExitCode::from(f.exit_code)
        }
    }
}

/// Runs in the server's configured language: what it prints is for the family (a reset link
/// to pass on), and the server's errors come worded.
pub fn run(settings: Settings, command: UserCommand) -> ExitCode {
    let lang = settings.server.language;
    finish(runtime().and_then(|rt| rt.block_on(within(lang, user(settings, command)))))
}

pub fn messages(settings: Settings) -> ExitCode {
    let lang = settings.server.language;
    finish(runtime().and_then(|rt| {
        rt.block_on(within(lang, async {
            require_data_dir(&settings)?;
            let target = target(settings).await?;
            let list: Vec<Message> = target
                .call::<(), _, _, _>("GET", "/messages", None, |app| async move {
                    ops::list_messages(&app).await
                })
                .await?;
            if list.is_empty() {
                say!("{}", t!("No messages.").here());
            }
            for m in list {
                say!(
                    "{}  {} <{}>\n{}\n",
                    m.created_at.format("%Y-%m-%d %H:%M"),
                    m.name,
                    m.email,
                    m.message
                );
            }
            Ok(())
        }))
    }))
}

async fn user(settings: Settings, command: UserCommand) -> Result<(), Failure> {
    // Ask for input before touching the store, so a prompt never holds the data directory.
    let add = match &command {
        UserCommand::Add(args) => Some(AddUser {
            email: args.email.clone(),
            first_name: args.first.clone(),
            last_name: args.last.clone(),
            role: args.role.clone().unwrap_or_else(|| "mom".into()),
            password: read_password(args.password_stdin)?,
        }),
        UserCommand::Delete { email, yes: false } => {
            confirm(&format!(
                "Delete {email} and every record of that family? This cannot be undone. [y/N] "
            ))?;
            None
        }
        _ => None,
    };
    // Only adding an account may start a new data directory; the other commands read one.
    if !matches!(command, UserCommand::Add(_)) {
        require_data_dir(&settings)?;
    }
    let target = target(settings).await?;
    match command {
        UserCommand::List => {
            let users: Vec<UserSummary> = target
                .call::<(), _, _, _>("GET", "/users", None, |app| async move {
                    ops::list_users(&app).await
                })
                .await?;
            print_users(&users);
        }
        UserCommand::Add(args) => {
            let req = add.ok_or_else(|| Failure::new(EXIT_FAILURE, "no account details"))?;
            let local = req.clone();
            let created: UserSummary = target
                .call("POST", "/users", Some(&req), |app| async move {
                    ops::add_user(&app, local).await
                })
                .await?;
            // The role only when it was asked for: nobody should read a choice they did not make.
            let notes: Vec<&str> = [
                args.role.as_ref().map(|_| created.role.as_str()),
                created.is_admin.then_some("admin"),
            ]
            .into_iter()
            .flatten()
            .collect();
            if notes.is_empty() {
                say!(
                    "{}",
                    t!("Created {{email}}.", email = &created.email).here()
                );
            } else {
                say!(
                    "{}",
                    t!(
                        "Created {{email}} ({{notes}}).",
                        email = &created.email,
                        notes = notes.join(", ")
                    )
                    .here()
                );
            }
        }
        UserCommand::ResetPassword { email } => {
            let req = EmailRequest {
                email: email.clone(),
            };
            let link: ResetLink = target
                .call(
                    "POST",
                    "/users/reset-password",
                    Some(&req),
                    |app| async move { ops::reset_password(&app, &email).await },
                )
                .await?;
            say!(
                "{}\n{}",
                t!(
                    "Send this link to {{email}}. It works once, for one hour:",
                    email = &req.email
                )
                .here(),
                link.link
            );
        }
        UserCommand::Promote { email } => {
            let req = EmailRequest {
                email: email.clone(),
            };
            let user: UserSummary = target
                .call("POST", "/users/promote", Some(&req), |app| async move {
                    ops::promote(&app, &email).await
                })
                .await?;
            say!(
                "{}",
                t!("{{email}} is now an admin.", email = &user.email).here()
            );
        }
        UserCommand::Delete { email, .. } => {
            let req = EmailRequest {
                email: email.clone(),
            };
            let user: UserSummary = target
                .call("POST", "/users/delete", Some(&req), |app| async move {
                    ops::delete_user(&app, &email).await
                })
                .await?;
            say!(
                "{}",
                t!(
                    "Deleted {{email}} and all of that family's records.",
                    email = &user.email
                )
                .here()
            );
        }
        UserCommand::PurgeGuests => {
            let removed: Removed = target
                .call::<(), _, _, _>("POST", "/guests/purge", None, |app| async move {
                    ops::purge_guests(&app).await
                })
                .await?;
            say!(
                "{}",
                t_plural!(
                    "Removed {{count}} idle guest account.",
                    "Removed {{count}} idle guest accounts.",
                    removed.removed
                )
                .here()
            );
        }
    }
    Ok(())
}

/// Refuses to go on when there is no data directory, instead of making an empty one.
pub(super) fn require_data_dir(settings: &Settings) -> Result<(), Failure> {
    let dir = &settings.storage.data_dir;
    if dir.exists() {
        return Ok(());
    }
    Err(Failure::new(
        EXIT_DATA_DIR,
        format!(
            "there is no data directory at {}: nothing to show yet. Point --data-dir (or \
             storage.data_dir in the config) at the server's data, or start the server once.",
            dir.display()
        ),
    ))
}

fn print_users(users: &[UserSummary]) {
    if users.is_empty() {
        say!("{}", t!("No accounts yet.").here());
        return;
    }
    let rows: Vec<[String; 6]> = users
        .iter()
        .map(|u| {
            [
                u.email.clone(),
                format!("{} {}", u.first_name, u.last_name)
                    .trim()
                    .to_string(),
                u.role.clone(),
                if u.is_admin { "yes" } else { "" }.to_string(),
                u.created_at.format("%Y-%m-%d %H:%M").to_string(),
                u.last_seen_at.format("%Y-%m-%d %H:%M").to_string(),
            ]
        })
        .collect();
    let header = ["EMAIL", "NAME", "ROLE", "ADMIN", "CREATED", "LAST SEEN"].map(String::from);
    super::out::write(format_args!("{}", table(&header, &rows)));
}

/// Columns padded by their width on a terminal (emoji count two, accents none), so names
/// like Zoë or 🌟 Mia keep the columns aligned.
fn table<const N: usize>(header: &[String; N], rows: &[[String; N]]) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut widths = header.clone().map(|h| h.width());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < N {
                line.push_str(&" ".repeat(widths[i] - cell.width() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The new account's password: asked twice on a terminal, or one line of standard input.
fn read_password(from_stdin: bool) -> Result<String, Failure> {
    let bad = |m: &str| Failure::new(ops::EXIT_INVALID, m);
    if from_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?;
        return Ok(line.trim_end_matches(['\r', '\n']).to_string());
    }
    if !std::io::stdin().is_terminal() {
        return Err(bad(
            "no terminal to ask for the password; use --password-stdin",
        ));
    }
    let first = rpassword::prompt_password("Password (at least 8 characters): ")
        .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?;
    let again = rpassword::prompt_password("Repeat the password: ")
        .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?;
    if first != again {
        return Err(bad("the passwords do not match"));
    }
    Ok(first)
}

fn confirm(question: &str) -> Result<(), Failure> {
    if !std::io::stdin().is_terminal() {
        return Err(Failure::new(
            ops::EXIT_INVALID,
            "refusing to delete without confirmation; add --yes",
        ));
    }
    print!("{question}");
    let _ = std::io::stdout().flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?;
    if matches!(answer.trim(), "y" | "Y" | "yes") {
        Ok(())
    } else {
        Err(Failure::new(EXIT_FAILURE, "not deleted"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_with_emoji_and_accents() {
        let header = ["NAME", "ROLE"].map(String::from);
        let rows = [
            ["Zoë Dvořák".to_string(), "mom".to_string()],
            ["🌟 Mia".to_string(), "dad".to_string()],
            ["Ann".to_string(), "mom".to_string()],
        ];
        let text = table(&header, &rows);
        let starts: Vec<usize> = text
            .lines()
            .map(|l| {
                use unicode_width::UnicodeWidthStr;
                let role = l.rfind(|c: char| c.is_whitespace()).unwrap() + 1;
                l[..role].width()
            })
            .collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");
    }
}
