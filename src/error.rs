//! Errors of the application services (account flows, admin operations): either a rule was
//! broken (`DomainError`, shown to the user) or storage failed (`StoreError`, logged).

use crate::domain::{DomainError, Invalid};
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Domain(#[from] DomainError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<Invalid> for AppError {
    fn from(err: Invalid) -> Self {
        AppError::Domain(err.into())
    }
}

pub type AppResult<T> = Result<T, AppError>;
