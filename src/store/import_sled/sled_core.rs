//! The sled store as the importer reads it: its trees by name, and every family's revision
//! moved on by the sled release's restart gap (its last writes may have been announced and
//! then lost in a crash; a revision handed out then is never handed out again).

/// Every tree of the store, in one fixed order (the index into `Core::trees`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TreeId {
    Users,
    UsersByEmail,
    Sessions,
    SessionsByUser,
    ResetTokens,
    Children,
    Meals,
    MealsByTime,
    MealsByChild,
    Media,
    Families,
    Jobs,
    UsersByFamily,
    FamilyInvites,
    InviteTokens,
    Recipes,
    Generations,
    GroceryLists,
    MealPlans,
    CoParents,
    CoParentTokens,
    ShareSessions,
    /// Photos whose record is gone and whose files are still to be removed (after the commit
    /// is on disk, and not while a backup copies photos). Keyed like the photo's record.
    BlobGraveyard,
}

impl TreeId {
    pub(crate) const ALL: [TreeId; 23] = [
        TreeId::Users,
        TreeId::UsersByEmail,
        TreeId::Sessions,
        TreeId::SessionsByUser,
        TreeId::ResetTokens,
        TreeId::Children,
        TreeId::Meals,
        TreeId::MealsByTime,
        TreeId::MealsByChild,
        TreeId::Media,
        TreeId::Families,
        TreeId::Jobs,
        TreeId::UsersByFamily,
        TreeId::FamilyInvites,
        TreeId::InviteTokens,
        TreeId::Recipes,
        TreeId::Generations,
        TreeId::GroceryLists,
        TreeId::MealPlans,
        TreeId::CoParents,
        TreeId::CoParentTokens,
        TreeId::ShareSessions,
        TreeId::BlobGraveyard,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            TreeId::Users => "users",
            TreeId::UsersByEmail => "users_by_email",
            TreeId::Sessions => "sessions",
            TreeId::SessionsByUser => "sessions_by_user",
            TreeId::ResetTokens => "reset_tokens",
            TreeId::Children => "children",
            TreeId::Meals => "meals",
            TreeId::MealsByTime => "meals_by_time",
            TreeId::MealsByChild => "meals_by_child",
            TreeId::Media => "media",
            TreeId::Families => "families",
            TreeId::Jobs => "jobs",
            TreeId::UsersByFamily => "users_by_family",
            TreeId::FamilyInvites => "family_invites",
            TreeId::InviteTokens => "invite_tokens",
            TreeId::Recipes => "recipes",
            TreeId::Generations => "generations",
            TreeId::GroceryLists => "grocery_lists",
            TreeId::MealPlans => "meal_plans",
            TreeId::CoParents => "co_parents",
            TreeId::CoParentTokens => "co_parent_tokens",
            TreeId::ShareSessions => "share_sessions",
            TreeId::BlobGraveyard => "blob_graveyard",
        }
    }
}

/// The sled database and its trees.
pub(crate) struct Core {
    pub(crate) db: sled::Db,
    trees: Vec<sled::Tree>,
}

/// A family's entry in the `families` tree: its revision (8 bytes), then 1 if it was deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FamilyState {
    pub revision: u64,
    pub deleted: bool,
}

impl FamilyState {
    pub(crate) fn decode(v: &[u8]) -> FamilyState {
        FamilyState {
            revision: v
                .get(..8)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map_or(0, u64::from_be_bytes),
            deleted: v.get(8) == Some(&1),
        }
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut v = self.revision.to_be_bytes().to_vec();
        if self.deleted {
            v.push(1);
        }
        v
    }
}

/// How far the sled release moved every family's revision at each start.
pub(crate) const RESTART_GAP: u64 = 1 << 20;

impl Core {
    /// Opens the trees and moves the revisions on by the restart gap (in the copy).
    pub(crate) fn open(db: sled::Db) -> sled::Result<Core> {
        let trees = TreeId::ALL
            .iter()
            .map(|t| db.open_tree(t.name()))
            .collect::<sled::Result<Vec<_>>>()?;
        let core = Core { db, trees };
        let families = core.tree(TreeId::Families);
        let mut batch = sled::Batch::default();
        for entry in families.iter() {
            let (key, value) = entry?;
            let mut state = FamilyState::decode(&value);
            state.revision += RESTART_GAP;
            batch.insert(key, state.encode());
        }
        families.apply_batch(batch)?;
        Ok(core)
    }

    pub(crate) fn tree(&self, id: TreeId) -> &sled::Tree {
        &self.trees[id as usize]
    }
}
