//! Durations and ages, with `unbounded` as a first-class value.
//!
//! Every horizon, window and delay in replay-audit is a [`Dur`]: a whole
//! number of milliseconds or `Unbounded`. Arithmetic saturates to
//! `Unbounded` instead of wrapping, so a sum that overflows still means "no
//! bound". Milliseconds are kept through every sum, product and comparison;
//! a number printed in seconds is rounded up ([`Dur::as_secs_ceil`]), so a
//! sub-second value never reads as shorter than it is.

use std::fmt;

/// A duration in whole milliseconds, or no bound at all.
///
/// Build one with [`Dur::secs`] or [`Dur::ms`]; read it with
/// [`Dur::as_ms`] or, for output in seconds, [`Dur::as_secs_ceil`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dur {
    /// A finite duration, in milliseconds.
    Ms(u64),
    Unbounded,
}

const MS_PER_SEC: u64 = 1_000;

impl Dur {
    pub const ZERO: Dur = Dur::Ms(0);

    /// `n` seconds. A finite value stays finite: past the millisecond
    /// range (about 584 million years) it is the longest finite duration,
    /// so a huge retention is not read as "kept forever", and a sum of such
    /// values still saturates to `Unbounded`.
    pub const fn secs(n: u64) -> Dur {
        Dur::Ms(n.saturating_mul(MS_PER_SEC))
    }

    /// `n` milliseconds.
    pub const fn ms(n: u64) -> Dur {
        Dur::Ms(n)
    }

    /// The milliseconds, or `None` when unbounded.
    pub fn as_ms(self) -> Option<u64> {
        match self {
            Dur::Ms(ms) => Some(ms),
            Dur::Unbounded => None,
        }
    }

    /// The whole seconds, rounded up (500 ms is 1 s), or `None` when
    /// unbounded: every number in seconds that the reports print.
    pub fn as_secs_ceil(self) -> Option<u64> {
        self.as_ms().map(|ms| ms.div_ceil(MS_PER_SEC))
    }

    /// This duration rounded up to a whole second.
    pub fn ceil_to_secs(self) -> Dur {
        self.as_secs_ceil().map_or(Dur::Unbounded, Dur::secs)
    }

    pub fn is_unbounded(self) -> bool {
        matches!(self, Dur::Unbounded)
    }

    /// Saturating addition: overflow becomes `Unbounded`. (A method rather
    /// than `std::ops::Add` so every call site reads as saturating.)
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, other: Dur) -> Dur {
        match (self, other) {
            (Dur::Ms(a), Dur::Ms(b)) => a.checked_add(b).map_or(Dur::Unbounded, Dur::Ms),
            _ => Dur::Unbounded,
        }
    }

    /// `self - other`, zero when `other` is not shorter, unbounded when
    /// `self` is.
    pub fn saturating_sub(self, other: Dur) -> Dur {
        match (self, other) {
            (Dur::Ms(a), Dur::Ms(b)) => Dur::Ms(a.saturating_sub(b)),
            (Dur::Unbounded, _) => Dur::Unbounded,
            (Dur::Ms(_), Dur::Unbounded) => Dur::ZERO,
        }
    }

    /// Saturating multiplication by a count.
    pub fn times(self, n: u64) -> Dur {
        match self {
            Dur::Ms(a) => a.checked_mul(n).map_or(Dur::Unbounded, Dur::Ms),
            Dur::Unbounded if n == 0 => Dur::ZERO,
            Dur::Unbounded => Dur::Unbounded,
        }
    }

    /// A number of milliseconds computed in floating point (a retry delay
    /// times a multiplier), rounded up to a whole millisecond; `Unbounded`
    /// past the range. A value within a billionth of a whole millisecond is
    /// that millisecond: `1000 × 1.1` is 1100 ms, not 1101 because the
    /// binary 1.1 is a hair above 1.1.
    pub fn from_ms_f64(ms: f64) -> Dur {
        if ms.is_nan() || ms >= u64::MAX as f64 {
            return Dur::Unbounded;
        }
        if ms <= 0.0 {
            return Dur::ZERO;
        }
        let near = ms.round();
        let whole = if (ms - near).abs() <= ms * 1e-9 {
            near
        } else {
            ms.ceil()
        };
        Dur::Ms(whole as u64)
    }

    /// Parses a manifest duration: humantime syntax (`30s`, `500ms`,
    /// `1h 30m`, `4d`, `2w`), a bare integer of seconds, or `unbounded`.
    /// Milliseconds are kept; a finer value is rounded up to the next
    /// millisecond, so a positive duration never parses as zero.
    pub fn parse(text: &str) -> Result<Dur, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("unbounded") {
            return Ok(Dur::Unbounded);
        }
        if t.starts_with('-') {
            return Err(format!("`{t}` is negative: durations cannot be negative"));
        }
        if let Ok(n) = t.parse::<u64>() {
            return Ok(Dur::secs(n));
        }
        const EXAMPLES: &str =
            "write e.g. `30s`, `5m`, `1h 30m`, `4d`, a number of seconds, or `unbounded`";
        if let Some(m) = months_unit(t) {
            return Err(format!(
                "`{t}` is ambiguous: `{m}` reads as minutes in some tools and months in others; write `m` or `min` for minutes, `d` for days"
            ));
        }
        humantime::parse_duration(t)
            .map(from_std)
            .map_err(|e| format!("`{t}` is not a duration: {}; {EXAMPLES}", why(t, &e)))
    }
}

/// A std duration in whole milliseconds, a sub-millisecond rest rounded up
/// (finite, like [`Dur::secs`], past the range).
fn from_std(d: std::time::Duration) -> Dur {
    let ms = d.as_nanos().div_ceil(1_000_000);
    Dur::Ms(u64::try_from(ms).unwrap_or(u64::MAX))
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
    /// Human form: `14h`, `1h 30m`, `4d`, `1s 500ms`, `unbounded`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dur::Unbounded => f.write_str("unbounded"),
            Dur::Ms(0) => f.write_str("0s"),
            Dur::Ms(ms) => {
                // Written part by part: the analysis formats durations into
                // every edge's explanation, and allocating here showed up.
                let mut rest = *ms;
                let mut first = true;
                for (unit, size) in [
                    ("d", 86_400_000u64),
                    ("h", 3_600_000),
                    ("m", 60_000),
                    ("s", 1_000),
                    ("ms", 1),
                ] {
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
        assert_eq!(Dur::parse("1m"), Ok(Dur::secs(60)));
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
        assert_eq!(Dur::parse("30s"), Ok(Dur::secs(30)));
        assert_eq!(Dur::parse("5m"), Ok(Dur::secs(300)));
        assert_eq!(Dur::parse("1h 30m"), Ok(Dur::secs(5400)));
        assert_eq!(Dur::parse("4d"), Ok(Dur::secs(345_600)));
        assert_eq!(Dur::parse("2w"), Ok(Dur::secs(1_209_600)));
        assert_eq!(Dur::parse("345600"), Ok(Dur::secs(345_600)));
        assert_eq!(Dur::parse("unbounded"), Ok(Dur::Unbounded));
        assert!(Dur::parse("-5m").unwrap_err().contains("negative"));
        assert!(Dur::parse("soon").unwrap_err().contains("not a duration"));
    }

    #[test]
    fn arithmetic_saturates_to_unbounded() {
        assert_eq!(Dur::ms(u64::MAX).add(Dur::ms(1)), Dur::Unbounded);
        assert_eq!(Dur::ms(u64::MAX / 2).times(3), Dur::Unbounded);
        assert_eq!(Dur::secs(2).add(Dur::Unbounded), Dur::Unbounded);
        assert!(Dur::Unbounded > Dur::ms(u64::MAX));
        // Seconds past the millisecond range are the longest finite value.
        assert_eq!(Dur::secs(u64::MAX), Dur::ms(u64::MAX));
        assert_eq!(Dur::parse("292000000000y"), Ok(Dur::ms(u64::MAX)));
        assert_eq!(Dur::secs(u64::MAX).add(Dur::ms(1)), Dur::Unbounded);
        assert_eq!(
            Dur::secs(u64::MAX / 1_000),
            Dur::ms(u64::MAX / 1_000 * 1_000)
        );
    }

    #[test]
    fn displays_compactly() {
        assert_eq!(Dur::secs(50_400).to_string(), "14h");
        assert_eq!(Dur::secs(5_461).to_string(), "1h 31m 1s");
        assert_eq!(Dur::secs(90_000).to_string(), "1d 1h");
        assert_eq!(Dur::Unbounded.to_string(), "unbounded");
    }

    #[test]
    fn keeps_milliseconds_when_parsing() {
        assert_eq!(Dur::parse("500ms"), Ok(Dur::ms(500)));
        assert_eq!(Dur::parse("1.5s"), Ok(Dur::ms(1_500)));
        assert_eq!(Dur::parse("100ms"), Ok(Dur::ms(100)));
        assert_eq!(Dur::parse("1s 500ms"), Ok(Dur::ms(1_500)));
        assert_eq!(Dur::parse("2m 250ms"), Ok(Dur::ms(120_250)));
        // Finer than a millisecond: up to the next one, never down to 0.
        assert_eq!(Dur::parse("0.4ms"), Ok(Dur::ms(1)));
        assert_eq!(Dur::parse("1us"), Ok(Dur::ms(1)));
        assert_eq!(Dur::parse("1500001us"), Ok(Dur::ms(1_501)));
        assert_eq!(Dur::parse("0s"), Ok(Dur::ZERO));
        // A bare integer is still seconds.
        assert_eq!(Dur::parse("5"), Ok(Dur::secs(5)));
    }

    #[test]
    fn seconds_are_rounded_up() {
        assert_eq!(Dur::ms(500).as_secs_ceil(), Some(1));
        assert_eq!(Dur::ms(1).as_secs_ceil(), Some(1));
        assert_eq!(Dur::ms(1_000).as_secs_ceil(), Some(1));
        assert_eq!(Dur::ms(1_001).as_secs_ceil(), Some(2));
        assert_eq!(Dur::ms(268_500).as_secs_ceil(), Some(269));
        assert_eq!(Dur::ZERO.as_secs_ceil(), Some(0));
        assert_eq!(Dur::Unbounded.as_secs_ceil(), None);
        assert_eq!(Dur::ms(u64::MAX).as_secs_ceil(), Some(u64::MAX / 1_000 + 1));
        assert_eq!(Dur::ms(1_200).ceil_to_secs(), Dur::secs(2));
        assert_eq!(Dur::ms(1_500).as_ms(), Some(1_500));
    }

    #[test]
    fn float_milliseconds_round_up_but_not_on_binary_noise() {
        assert_eq!(Dur::from_ms_f64(1_000.0 * 1.1), Dur::ms(1_100));
        assert_eq!(Dur::from_ms_f64(1_100.4), Dur::ms(1_101));
        assert_eq!(Dur::from_ms_f64(0.3), Dur::ms(1));
        assert_eq!(Dur::from_ms_f64(0.0), Dur::ZERO);
        assert_eq!(Dur::from_ms_f64(f64::INFINITY), Dur::Unbounded);
    }

    #[test]
    fn displays_milliseconds_only_when_there_are_some() {
        assert_eq!(Dur::ms(500).to_string(), "500ms");
        assert_eq!(Dur::ms(1_500).to_string(), "1s 500ms");
        assert_eq!(Dur::ms(5_400_007).to_string(), "1h 30m 7ms");
        assert_eq!(Dur::secs(345_600).to_string(), "4d");
        assert_eq!(Dur::secs(5_400).to_string(), "1h 30m");
        assert_eq!(Dur::ZERO.to_string(), "0s");
    }
}
