//! The rules for a value, one function per rule, used by the tree reader
//! ([`super::reader`], which words what they refuse). Each takes a
//! [`Scalar`], a borrowed view of a tree [`Value`].

use std::borrow::Cow;

use crate::manifest::yaml::Value;
use crate::time::Dur;

/// A value as the rules see it: a scalar's text or type, or something
/// else (null, a collection).
#[derive(Clone, Copy)]
pub(super) enum Scalar<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Other,
}

impl<'a> From<&'a Value> for Scalar<'a> {
    fn from(v: &'a Value) -> Self {
        match v {
            Value::Str(s) => Scalar::Str(s),
            Value::Int(i) => Scalar::Int(*i),
            Value::Float(f) => Scalar::Float(*f),
            Value::Bool(b) => Scalar::Bool(*b),
            _ => Scalar::Other,
        }
    }
}

/// A scalar as text: strings as written, numbers and booleans as their
/// text (as [`Value::scalar_text`] words them); `None` for null and
/// collections.
pub(super) fn string_of<'a>(v: impl Into<Scalar<'a>>) -> Option<Cow<'a, str>> {
    Some(match v.into() {
        Scalar::Str(s) => Cow::Borrowed(s),
        Scalar::Int(i) => Cow::Owned(i.to_string()),
        Scalar::Float(f) => Cow::Owned(f.to_string()),
        Scalar::Bool(b) => Cow::Owned(b.to_string()),
        Scalar::Other => return None,
    })
}

/// A boolean: `true` or `false` (and the YAML 1.1 spellings the parser
/// types as booleans).
pub(super) fn bool_of<'a>(v: impl Into<Scalar<'a>>) -> Option<bool> {
    match v.into() {
        Scalar::Bool(b) => Some(b),
        _ => None,
    }
}

/// Why a value is not a count.
pub(super) enum CountError {
    /// A whole number below the minimum.
    Below(i64),
    NotWhole,
}

/// A whole number of at least `min`.
pub(super) fn count_of<'a>(v: impl Into<Scalar<'a>>, min: u64) -> Result<u64, CountError> {
    match v.into() {
        Scalar::Int(i) if i >= min as i64 => Ok(i as u64),
        Scalar::Int(i) => Err(CountError::Below(i)),
        _ => Err(CountError::NotWhole),
    }
}

/// Why a value is not a positive number.
pub(super) enum NumberError {
    NotPositive,
    NotNumber,
}

/// A positive finite number.
pub(super) fn number_of<'a>(v: impl Into<Scalar<'a>>) -> Result<f64, NumberError> {
    match v.into() {
        Scalar::Int(i) if i > 0 => Ok(i as f64),
        Scalar::Float(f) if f.is_finite() && f > 0.0 => Ok(f),
        Scalar::Int(_) | Scalar::Float(_) => Err(NumberError::NotPositive),
        _ => Err(NumberError::NotNumber),
    }
}

/// Why a value is not a duration.
pub(super) enum DurationError {
    /// Neither a number of seconds nor text.
    NotDuration,
    /// Zero where zero makes no sense.
    Zero,
    /// Text that is no duration, with why.
    Bad(String),
}

/// A duration: whole seconds or text such as `30s` or `500ms`; zero only where
/// `allow_zero` ("not kept").
pub(super) fn duration_of<'a>(
    v: impl Into<Scalar<'a>>,
    allow_zero: bool,
) -> Result<Dur, DurationError> {
    let d = match v.into() {
        Scalar::Int(i) if i < 0 => Err(format!("`{i}` is negative: durations cannot be negative")),
        Scalar::Int(i) => Ok(Dur::secs(i as u64)),
        Scalar::Str(s) => Dur::parse(s),
        _ => return Err(DurationError::NotDuration),
    };
    match d {
        Ok(Dur::ZERO) if !allow_zero => Err(DurationError::Zero),
        Ok(d) => Ok(d),
        Err(msg) => Err(DurationError::Bad(msg)),
    }
}

/// The index of `s` among `names`.
pub(super) fn choice_of(s: &str, names: &[&str]) -> Option<usize> {
    names.iter().position(|n| *n == s)
}
