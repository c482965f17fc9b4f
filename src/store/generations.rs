//! Recipe generation jobs (`domain::generation`), keyed by their (time-ordered) id. Progress
//! between the stored states lives in memory only (`jobs::generation`). Jobs are kept for an
//! hour, then purged.

use super::Record;
use crate::domain::generation::Generation;

impl Record for Generation {
    const VERSION: u8 = 1;
}

pub use super::sqlite::generations::Generations;
