//! Calendar dates for waiver expiry: [`Date`] (`YYYY-MM-DD`) and "today",
//! which `REPLAY_AUDIT_TODAY` can fix for tests.

use std::fmt;

/// The environment variable that fixes "today" for waiver expiry (tests).
pub const TODAY_VAR: &str = "REPLAY_AUDIT_TODAY";

/// A calendar date, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// Parses exactly `YYYY-MM-DD`, refusing days that do not exist.
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        if b.len() != 10
            || b[4] != b'-'
            || b[7] != b'-'
            || !digits(0..4)
            || !digits(5..7)
            || !digits(8..10)
        {
            return None;
        }
        // humantime (already a dependency) knows the calendar: it refuses
        // 2025-02-30, so no date crate is needed for this one check.
        humantime::parse_rfc3339(&format!("{text}T00:00:00Z")).ok()?;
        Some(Date {
            year: text[0..4].parse().ok()?,
            month: text[5..7].parse().ok()?,
            day: text[8..10].parse().ok()?,
        })
    }

    /// Today (UTC), or the date in `REPLAY_AUDIT_TODAY`.
    pub fn today() -> Result<Date, String> {
        if let Some(v) = std::env::var_os(TODAY_VAR) {
            let v = v.to_string_lossy();
            return Date::parse(v.trim())
                .ok_or_else(|| format!("{TODAY_VAR}=`{v}` is not a date: write YYYY-MM-DD"));
        }
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        Date::parse(&now[..10]).ok_or_else(|| format!("the system clock gives `{now}`, not a date"))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_strict() {
        assert_eq!(
            Date::parse("2026-02-28"),
            Some(Date {
                year: 2026,
                month: 2,
                day: 28
            })
        );
        assert_eq!(Date::parse("2026-02-30"), None);
        assert_eq!(Date::parse("2026-2-28"), None);
        assert!(Date::parse("2026-01-31").unwrap() < Date::parse("2026-02-01").unwrap());
    }

    #[test]
    fn dates_print_as_they_are_written() {
        assert_eq!(Date::parse("2026-01-09").unwrap().to_string(), "2026-01-09");
    }
}
