//! How values are kept in columns: ids as their 16 bytes, times as Unix nanoseconds UTC
//! (INTEGER: compact, sorted, exact to what chrono holds; `datetime(x / 1e9, 'unixepoch')`
//! in the sqlite3 shell), enums by their serde name (TEXT), lists and documents as JSON text.

use chrono::{DateTime, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, Value, ValueRef};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::domain::ids::{
    ChildId, CoParentId, ContactMessageId, FamilyId, GenerationId, GroceryItemId, GroceryListId,
    InviteId, JobId, MealId, MealPlanEntryId, MediaId, RecipeId, UserId,
};

macro_rules! id_columns {
    ($($id:ty),*) => {$(
        impl ToSql for $id {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
            }
        }

        impl FromSql for $id {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                let bytes: [u8; 16] = value
                    .as_blob()?
                    .try_into()
                    .map_err(|_| FromSqlError::InvalidBlobSize { expected_size: 16, blob_size: 0 })?;
                Ok(<$id>::from_bytes(bytes))
            }
        }

        impl From<$id> for Value {
            fn from(id: $id) -> Value {
                Value::Blob(id.as_bytes().to_vec())
            }
        }
    )*};
}

id_columns!(
    ChildId,
    CoParentId,
    ContactMessageId,
    FamilyId,
    GenerationId,
    GroceryItemId,
    GroceryListId,
    InviteId,
    JobId,
    MealId,
    MealPlanEntryId,
    MediaId,
    RecipeId,
    UserId
);

/// A time as a column value.
pub(crate) fn time(t: DateTime<Utc>) -> Value {
    Value::Integer(nanos(t))
}

/// A time as Unix nanoseconds (the column's number; saturates outside 1677-2262).
pub(crate) fn nanos(t: DateTime<Utc>) -> i64 {
    t.timestamp_nanos_opt().unwrap_or(if t.timestamp() < 0 {
        i64::MIN
    } else {
        i64::MAX
    })
}

pub(crate) fn opt_time(t: Option<DateTime<Utc>>) -> Value {
    t.map_or(Value::Null, time)
}

/// A time column.
pub(crate) fn get_time(row: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<DateTime<Utc>> {
    Ok(DateTime::from_timestamp_nanos(row.get(idx)?))
}

pub(crate) fn get_opt_time(
    row: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<Option<DateTime<Utc>>> {
    Ok(row
        .get::<_, Option<i64>>(idx)?
        .map(DateTime::from_timestamp_nanos))
}

/// A unit enum (or any value serde writes as a string) by its name.
pub(crate) fn name<T: Serialize>(value: &T) -> Value {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => Value::Text(s),
        Ok(other) => Value::Text(other.to_string()),
        Err(_) => Value::Null,
    }
}

pub(crate) fn opt_name<T: Serialize>(value: &Option<T>) -> Value {
    value.as_ref().map_or(Value::Null, name)
}

/// A value written with `name`.
pub(crate) fn get_name<T: DeserializeOwned>(
    row: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<T> {
    let text = row.get_ref(idx)?.as_str()?;
    from_name(text).map_err(|e| bad(idx, e))
}

/// Reads a value serde names with a string, without building a JSON value first.
fn from_name<T: DeserializeOwned>(text: &str) -> Result<T, serde::de::value::Error> {
    T::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(text))
}

pub(crate) fn get_opt_name<T: DeserializeOwned>(
    row: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<Option<T>> {
    match row.get_ref(idx)?.as_str_or_null()? {
        None => Ok(None),
        Some(text) => from_name(text).map(Some).map_err(|e| bad(idx, e)),
    }
}

/// A list or a document as JSON text.
pub(crate) fn json<T: Serialize + ?Sized>(value: &T) -> Value {
    Value::Text(serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

pub(crate) fn get_json<T: DeserializeOwned>(
    row: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<T> {
    let text: String = row.get(idx)?;
    serde_json::from_str(&text).map_err(|e| bad(idx, e))
}

pub(crate) fn get_u64(row: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<u64> {
    Ok(row.get::<_, i64>(idx)?.max(0) as u64)
}

pub(crate) fn get_u32(row: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<u32> {
    Ok(u32::try_from(row.get::<_, i64>(idx)?.max(0)).unwrap_or(u32::MAX))
}

pub(crate) fn int(n: u64) -> Value {
    Value::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

pub(crate) fn text(s: &str) -> Value {
    Value::Text(s.to_owned())
}

pub(crate) fn flag(b: bool) -> Value {
    Value::Integer(i64::from(b))
}

fn bad(idx: usize, e: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, Box::new(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::meal::{MealType, Mood};

    #[test]
    fn values_come_back_as_they_went_in() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let id = MealId::new();
        let now = Utc::now();
        let (back_id, back_time, back_type, back_mood, back_list): (
            MealId,
            DateTime<Utc>,
            MealType,
            Option<Mood>,
            Vec<String>,
        ) = conn
            .query_row(
                "SELECT ?1, ?2, ?3, ?4, ?5",
                rusqlite::params_from_iter([
                    Value::from(id),
                    time(now),
                    name(&MealType::AfternoonSnack),
                    opt_name(&None::<Mood>),
                    json(&["egg", "toast"]),
                ]),
                |r| {
                    Ok((
                        r.get(0)?,
                        get_time(r, 1)?,
                        get_name(r, 2)?,
                        get_opt_name(r, 3)?,
                        get_json(r, 4)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(back_id, id);
        assert_eq!(back_time, now, "exact to the nanosecond");
        assert_eq!(back_type, MealType::AfternoonSnack);
        assert_eq!(back_mood, None);
        assert_eq!(back_list, ["egg", "toast"]);
    }

    #[test]
    fn a_wrong_value_is_an_error_not_a_panic() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let got: rusqlite::Result<MealType> =
            conn.query_row("SELECT 'elevenses'", [], |r| get_name(r, 0));
        assert!(got.is_err());
        let got: rusqlite::Result<MealId> = conn.query_row("SELECT x'0102'", [], |r| r.get(0));
        assert!(got.is_err());
    }
}
