//! 32-byte hashes and other 32-byte values: raw bytes in postcard, 64 hex digits in JSON and on screen.

use serde::{Deserialize, Serialize};

/// A 32-byte value: an event hash, a header hash, a commitment, a seed or a salt.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hash32(pub [u8; 32]);

impl Hash32 {
    /// The full 64-digit hex form.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The first 12 hex digits, for tables.
    pub fn short(&self) -> String {
        hex::encode(&self.0[..6])
    }

    pub fn from_hex(s: &str) -> Result<Self, super::LogError> {
        let mut out = [0u8; 32];
        hex::decode_to_slice(s.trim(), &mut out)
            .map_err(|_| super::LogError::InvalidHex { digits: 64, text: super::quote_prefix(s) })?;
        Ok(Hash32(out))
    }
}

impl From<blake3::Hash> for Hash32 {
    fn from(h: blake3::Hash) -> Self {
        Hash32(*h.as_bytes())
    }
}

impl std::fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl std::fmt::Display for Hash32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Hash32 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.to_hex())
        } else {
            self.0.serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for Hash32 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            Hash32::from_hex(&s).map_err(serde::de::Error::custom)
        } else {
            Ok(Hash32(<[u8; 32]>::deserialize(d)?))
        }
    }
}

impl schemars::JsonSchema for Hash32 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hex32".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "32 bytes as 64 lowercase hex digits"
        })
    }
}
