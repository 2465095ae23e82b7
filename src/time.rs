//! Durations and ages, with `unbounded` as a first-class value.
//!
//! Every horizon, window and delay in replay-audit is a [`Dur`]: a whole
//! number of seconds or `Unbounded`. Arithmetic saturates to `Unbounded`
//! instead of wrapping, so a sum that overflows still means "no bound".

use std::fmt;

/// A duration in whole seconds, or no bound at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dur {
    Secs(u64),
    Unbounded,
}

impl Dur {
    pub const ZERO: Dur = Dur::Secs(0);

    pub fn secs(self) -> Option<u64> {
        match self {
            Dur::Secs(s) => Some(s),
            Dur::Unbounded => None,
        }
    }

    pub fn is_unbounded(self) -> bool {
        matches!(self, Dur::Unbounded)
    }

    /// Saturating addition: overflow becomes `Unbounded`. (A method rather
    /// than `std::ops::Add` so every call site reads as saturating.)
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, other: Dur) -> Dur {
        match (self, other) {
            (Dur::Secs(a), Dur::Secs(b)) => a.checked_add(b).map_or(Dur::Unbounded, Dur::Secs),
            _ => Dur::Unbounded,
        }
    }

    /// Saturating multiplication by a count.
    pub fn times(self, n: u64) -> Dur {
        match self {
            Dur::Secs(a) => a.checked_mul(n).map_or(Dur::Unbounded, Dur::Secs),
            Dur::Unbounded if n == 0 => Dur::ZERO,
            Dur::Unbounded => Dur::Unbounded,
        }
    }

    /// Parses a manifest duration: humantime syntax (`30s`, `1h 30m`, `4d`,
    /// `2w`), a bare integer of seconds, or `unbounded`.
    pub fn parse(text: &str) -> Result<Dur, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("unbounded") {
            return Ok(Dur::Unbounded);
        }
        if t.starts_with('-') {
            return Err(format!("`{t}` is negative: durations cannot be negative"));
        }
        if let Ok(n) = t.parse::<u64>() {
            return Ok(Dur::Secs(n));
        }
        const EXAMPLES: &str =
            "write e.g. `30s`, `5m`, `1h 30m`, `4d`, a number of seconds, or `unbounded`";
        if let Some(m) = months_unit(t) {
            return Err(format!(
                "`{t}` is ambiguous: `{m}` reads as minutes in some tools and months in others; write `m` or `min` for minutes, `d` for days"
            ));
        }
        humantime::parse_duration(t)
            .map(|d| Dur::Secs(d.as_secs()))
            .map_err(|e| format!("`{t}` is not a duration: {}; {EXAMPLES}", why(t, &e)))
    }
}

/// The unit `M` or `months`/`month` after a number in `t`: humantime reads
/// them as months (30.44 days), where a reader may mean minutes.
fn months_unit(t: &str) -> Option<&str> {
    t.split(|c: char| c.is_ascii_digit() || c.is_whitespace())
        .find(|u| matches!(*u, "M" | "month" | "months"))
}

/// A parse error in our own words: the character or unit at fault, counted
/// from 1, never the parser's internal text.
fn why(t: &str, e: &humantime::DurationError) -> String {
    use humantime::DurationError as E;
    let at = |pos: usize| {
        let c = t[pos.min(t.len())..].chars().next();
        let n = t[..pos.min(t.len())].chars().count() + 1;
        c.map_or_else(
            || "it ends where a number is expected".to_string(),
            |c| format!("`{c}` (character {n}) is not a number or a unit"),
        )
    };
    match e {
        E::InvalidCharacter(pos) | E::NumberExpected(pos) => at(*pos),
        E::UnknownUnit { unit, .. } => format!("`{unit}` is not a unit (s, m, h, d, w)"),
        E::NumberOverflow => "the number is too large".to_string(),
        E::Empty => "it is empty".to_string(),
    }
}

impl fmt::Display for Dur {
    /// Human form: `14h`, `1h 30m`, `4d`, `unbounded`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dur::Unbounded => f.write_str("unbounded"),
            Dur::Secs(0) => f.write_str("0s"),
            Dur::Secs(s) => {
                // Written part by part: the analysis formats durations into
                // every edge's explanation, and allocating here showed up.
                let mut rest = *s;
                let mut first = true;
                for (unit, size) in [("d", 86_400u64), ("h", 3_600), ("m", 60), ("s", 1)] {
                    if rest >= size {
                        if !first {
                            f.write_str(" ")?;
                        }
                        write!(f, "{}{unit}", rest / size)?;
                        rest %= size;
                        first = false;
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_are_refused_as_ambiguous_and_errors_name_no_parser_internals() {
        let ambiguous = "`1M` is ambiguous: `M` reads as minutes in some tools and months in others; write `m` or `min` for minutes, `d` for days";
        assert_eq!(Dur::parse("1M"), Err(ambiguous.to_string()));
        assert!(
            Dur::parse("2 months")
                .unwrap_err()
                .contains("is ambiguous: `months`")
        );
        assert_eq!(Dur::parse("1m"), Ok(Dur::Secs(60)));
        let examples =
            "write e.g. `30s`, `5m`, `1h 30m`, `4d`, a number of seconds, or `unbounded`";
        assert_eq!(
            Dur::parse("2x"),
            Err(format!(
                "`2x` is not a duration: `x` is not a unit (s, m, h, d, w); {examples}"
            ))
        );
        assert_eq!(
            Dur::parse("soon"),
            Err(format!(
                "`soon` is not a duration: `s` (character 1) is not a number or a unit; {examples}"
            ))
        );
        assert_eq!(
            Dur::parse("5m x"),
            Err(format!(
                "`5m x` is not a duration: `x` (character 4) is not a number or a unit; {examples}"
            ))
        );
    }

    #[test]
    fn parses_the_spec_forms() {
        assert_eq!(Dur::parse("30s"), Ok(Dur::Secs(30)));
        assert_eq!(Dur::parse("5m"), Ok(Dur::Secs(300)));
        assert_eq!(Dur::parse("1h 30m"), Ok(Dur::Secs(5400)));
        assert_eq!(Dur::parse("4d"), Ok(Dur::Secs(345_600)));
        assert_eq!(Dur::parse("2w"), Ok(Dur::Secs(1_209_600)));
        assert_eq!(Dur::parse("345600"), Ok(Dur::Secs(345_600)));
        assert_eq!(Dur::parse("unbounded"), Ok(Dur::Unbounded));
        assert!(Dur::parse("-5m").unwrap_err().contains("negative"));
        assert!(Dur::parse("soon").unwrap_err().contains("not a duration"));
    }

    #[test]
    fn arithmetic_saturates_to_unbounded() {
        assert_eq!(Dur::Secs(u64::MAX).add(Dur::Secs(1)), Dur::Unbounded);
        assert_eq!(Dur::Secs(u64::MAX / 2).times(3), Dur::Unbounded);
        assert_eq!(Dur::Secs(2).add(Dur::Unbounded), Dur::Unbounded);
        assert!(Dur::Unbounded > Dur::Secs(u64::MAX));
    }

    #[test]
    fn displays_compactly() {
        assert_eq!(Dur::Secs(50_400).to_string(), "14h");
        assert_eq!(Dur::Secs(5_461).to_string(), "1h 31m 1s");
        assert_eq!(Dur::Secs(90_000).to_string(), "1d 1h");
        assert_eq!(Dur::Unbounded.to_string(), "unbounded");
    }
}
