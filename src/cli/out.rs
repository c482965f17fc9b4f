//! What the commands print on standard output. A reader that stops early (`highchair user list
//! | head -3`) closes the pipe; the rest is dropped quietly, as other Unix tools do, where
//! `println!` would panic ("failed printing to stdout: Broken pipe").

use std::io::{ErrorKind, Write};

/// Writes to standard output. False when the output could not be written for another reason
/// than a reader that went away (a full disk behind `> file`); that is said on stderr.
pub fn write(args: std::fmt::Arguments) -> bool {
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => true,
        Err(e) => {
            eprintln!("highchair: cannot write the output: {e}");
            false
        }
    }
}

/// `println!` for the commands: a line on standard output through [`write`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use say;
