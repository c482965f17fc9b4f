//! Server administration for the person who runs Highchair: account management and contact
//! messages. Served only on the Unix socket in the data directory (mode 0600), never on the
//! network; the CLI uses the socket while `serve` runs and opens the store itself otherwise.

pub mod client;
pub mod ops;
pub mod socket;

/// The admin socket's file name inside the data directory.
pub const SOCKET: &str = "admin.sock";

/// A failed admin operation: a message for the terminal and the CLI's exit code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    pub message: String,
    /// 1 failure, 2 bad input, 4 unknown account.
    pub exit_code: u8,
}

impl Failure {
    pub fn new(exit_code: u8, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            exit_code,
        }
    }
}
