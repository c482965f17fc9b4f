//! Stored values: one version byte, then serde JSON. New fields use `#[serde(default)]`;
//! a record whose shape changed gets an `upgrade` step for its older versions.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::StoreError;

pub trait Record: Serialize + DeserializeOwned {
    /// The version this build writes.
    const VERSION: u8;

    /// Brings an older record (as JSON) up to `VERSION`.
    fn upgrade(_from: u8, value: serde_json::Value) -> serde_json::Value {
        value
    }

    fn encode(&self) -> Result<Vec<u8>, StoreError> {
        let mut out = vec![Self::VERSION];
        serde_json::to_writer(&mut out, self)
            .map_err(|e| StoreError::Corrupt(format!("cannot encode record: {e}")))?;
        Ok(out)
    }

    fn decode(bytes: &[u8]) -> Result<Self, StoreError> {
        let (&version, body) = bytes
            .split_first()
            .ok_or_else(|| StoreError::Corrupt("empty record".into()))?;
        let bad = |e: serde_json::Error| StoreError::Corrupt(e.to_string());
        if version == Self::VERSION {
            return serde_json::from_slice(body).map_err(bad);
        }
        if version > Self::VERSION {
            return Err(StoreError::Corrupt(format!(
                "record version {version} is newer than this build reads ({})",
                Self::VERSION
            )));
        }
        let value = serde_json::from_slice(body).map_err(bad)?;
        serde_json::from_value(Self::upgrade(version, value)).map_err(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Pet {
        name: String,
        #[serde(default)]
        legs: u8,
    }

    impl Record for Pet {
        const VERSION: u8 = 2;

        fn upgrade(from: u8, mut value: serde_json::Value) -> serde_json::Value {
            if from < 2 {
                // version 1 called it `title`
                if let Some(title) = value.get("title").cloned() {
                    value["name"] = title;
                }
            }
            value
        }
    }

    #[test]
    fn round_trip_and_upgrade() {
        let pet = Pet {
            name: "Rex".into(),
            legs: 4,
        };
        assert_eq!(Pet::decode(&pet.encode().unwrap()).unwrap(), pet);

        let mut old = vec![1u8];
        old.extend_from_slice(br#"{"title":"Tom"}"#);
        assert_eq!(
            Pet::decode(&old).unwrap(),
            Pet {
                name: "Tom".into(),
                legs: 0
            }
        );

        assert!(Pet::decode(&[9, b'{', b'}']).is_err());
        assert!(Pet::decode(&[]).is_err());
        assert!(Pet::decode(&[2, b'x']).is_err());
    }
}
