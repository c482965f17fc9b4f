//! A number as a form may send it. The API turns its JSON into this, so rules about numbers
//! ("age is a whole number from 0 to 18", "1 to 10 children") stay here without JSON types.

#[derive(Debug, Clone, PartialEq, Default)]
pub enum NumberInput {
    /// Missing or null.
    #[default]
    Absent,
    Number(f64),
    Text(String),
    /// Anything else (a list, an object, a boolean).
    Other,
}

impl NumberInput {
    /// The value as a finite number, reading numeric text; `None` for blank, absent or not numeric.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            NumberInput::Number(n) => Some(*n),
            NumberInput::Text(s) => s.trim().parse::<f64>().ok(),
            NumberInput::Absent | NumberInput::Other => None,
        }
        .filter(|n| n.is_finite())
    }

    /// Missing, null or blank text.
    pub fn is_blank(&self) -> bool {
        match self {
            NumberInput::Absent => true,
            NumberInput::Text(s) => s.trim().is_empty(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_and_numeric_text() {
        assert_eq!(NumberInput::Number(3.0).as_number(), Some(3.0));
        assert_eq!(NumberInput::Text(" 7 ".into()).as_number(), Some(7.0));
        assert_eq!(NumberInput::Text("seven".into()).as_number(), None);
        assert_eq!(NumberInput::Number(f64::NAN).as_number(), None);
        assert!(NumberInput::Text("  ".into()).is_blank());
        assert!(NumberInput::Absent.is_blank());
        assert!(!NumberInput::Other.is_blank());
    }
}
