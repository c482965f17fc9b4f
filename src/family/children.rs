//! Child profiles of one family.

use chrono::Utc;

use crate::app::App;
use crate::domain::DomainError;
use crate::domain::child::{Child, ChildDraft, SAVE_TITLE, UPDATE_TITLE};
use crate::domain::ids::{ChildId, UserId};
use crate::error::AppResult;

pub fn list(app: &App, owner: UserId) -> AppResult<Vec<Child>> {
    Ok(app.store.children.list(owner)?)
}

pub fn get(app: &App, owner: UserId, id: ChildId) -> AppResult<Child> {
    Ok(app
        .store
        .children
        .get(owner, id)?
        .ok_or(DomainError::NotFound)?)
}

pub async fn create(app: &App, owner: UserId, draft: ChildDraft) -> AppResult<Child> {
    let child = Child::create(owner, draft.validate(SAVE_TITLE)?, Utc::now());
    app.store.children.save(&child).await?;
    Ok(child)
}

pub async fn update(app: &App, owner: UserId, id: ChildId, draft: ChildDraft) -> AppResult<Child> {
    let mut child = get(app, owner, id)?;
    child.apply(draft.validate(UPDATE_TITLE)?, Utc::now());
    app.store.children.save(&child).await?;
    Ok(child)
}

/// Deletes the child, its meals and their photos together.
pub async fn delete(app: &App, owner: UserId, id: ChildId) -> AppResult<()> {
    let child = get(app, owner, id)?;
    let meals = app.store.meals.of_child(owner, id)?;
    app.store.children.delete(&child, &meals).await?;
    tracing::info!(child.id = %id, meals = meals.len(), "child deleted with its meals");
    Ok(())
}
