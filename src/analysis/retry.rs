//! The reference arithmetic of a retry sequence.
//!
//! `attempts` n, per-attempt `timeout` t, `backoff` b, `multiplier` m and
//! `max_backoff` c add the sum over i = 1 .. n-1 of (t + min(b * m^(i-1), c)),
//! capped by `max_elapsed`. Each retry is a copy of the request.

use crate::manifest::model::Retry;
use crate::time::Dur;

/// The span of a retry sequence and the words that explain it.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub adds: Dur,
    pub why: String,
    /// Total attempts, including the first.
    pub attempts: u64,
}

/// Computes the span. `fallback_timeout` is the call's own timeout.
pub fn span(retry: &Retry, fallback_timeout: Option<Dur>) -> Span {
    let n = retry.attempts.as_ref().map_or(1, |a| a.value);
    let t = retry
        .timeout
        .as_ref()
        .map(|t| t.value)
        .or(fallback_timeout)
        .unwrap_or(Dur::ZERO);
    let b = retry.backoff.as_ref().map_or(Dur::ZERO, |b| b.value);
    let m = retry.multiplier.as_ref().map_or(2.0, |m| m.value);
    let cap = retry.max_backoff.as_ref().map(|c| c.value);
    let mut total = Dur::ZERO;
    let mut terms = Vec::new();
    let mut delay = match b {
        Dur::Secs(s) => s as f64,
        Dur::Unbounded => f64::INFINITY,
    };
    let mut i = 1u64;
    while i < n {
        let capped = match cap {
            Some(Dur::Secs(c)) if delay >= c as f64 => Dur::Secs(c),
            _ if delay >= u64::MAX as f64 => Dur::Unbounded,
            _ => Dur::Secs(delay.round() as u64),
        };
        let term = t.add(capped);
        let at_cap = matches!(cap, Some(Dur::Secs(c)) if capped == Dur::Secs(c)) || m <= 1.0;
        if at_cap || term.is_unbounded() {
            // Every remaining term is the same: add them at once.
            let remaining = n - i;
            total = total.add(term.times(remaining));
            if remaining > 1 {
                terms.push(format!("{remaining} × ({t} + {capped})"));
            } else {
                terms.push(format!("({t} + {capped})"));
            }
            break;
        }
        total = total.add(term);
        if terms.len() < 6 {
            terms.push(format!("({t} + {capped})"));
        } else if terms.len() == 6 {
            terms.push("…".to_string());
        }
        if total.is_unbounded() {
            break;
        }
        delay *= m;
        i += 1;
    }
    let mut why = if n <= 1 {
        "1 attempt, no retry".to_string()
    } else {
        format!("{n} attempts: {} = {total}", terms.join(" + "))
    };
    if let Some(max) = &retry.max_elapsed
        && max.value < total
    {
        why.push_str(&format!(", capped by max_elapsed {}", max.value));
        total = max.value;
    }
    Span {
        adds: total,
        why,
        attempts: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Loc;
    use crate::manifest::model::Sp;

    fn sp<T>(v: T) -> Option<Sp<T>> {
        Some(Sp::new(v, Loc::default()))
    }

    fn retry(attempts: u64, timeout: u64, backoff: u64) -> Retry {
        Retry {
            attempts: sp(attempts),
            timeout: sp(Dur::Secs(timeout)),
            backoff: sp(Dur::Secs(backoff)),
            ..Retry::default()
        }
    }

    #[test]
    fn three_attempts_29s_1s_doubling_add_61s() {
        let s = span(&retry(3, 29, 1), None);
        assert_eq!(s.adds, Dur::Secs(61));
        assert_eq!(s.why, "3 attempts: (29s + 1s) + (29s + 2s) = 1m 1s");
    }

    #[test]
    fn max_backoff_caps_each_delay() {
        let mut r = retry(5, 10, 4);
        r.max_backoff = sp(Dur::Secs(10));
        // (10+4) + (10+8) + (10+10) + (10+10) = 72
        assert_eq!(span(&r, None).adds, Dur::Secs(72));
    }

    #[test]
    fn max_elapsed_caps_the_sequence() {
        let mut r = retry(10, 30, 1);
        r.max_elapsed = sp(Dur::Secs(120));
        let s = span(&r, None);
        assert_eq!(s.adds, Dur::Secs(120));
        assert!(s.why.ends_with("capped by max_elapsed 2m"), "{}", s.why);
    }

    #[test]
    fn call_timeout_is_the_default_attempt_timeout() {
        let r = Retry {
            attempts: sp(2),
            ..Retry::default()
        };
        assert_eq!(span(&r, Some(Dur::Secs(5))).adds, Dur::Secs(5));
    }

    #[test]
    fn huge_attempt_counts_saturate_instead_of_looping() {
        let mut r = retry(u64::MAX, 1, 1);
        r.max_backoff = sp(Dur::Secs(1));
        assert_eq!(span(&r, None).adds, Dur::Unbounded);
        let r = retry(100_015, 0, 1);
        assert_eq!(span(&r, None).adds, Dur::Unbounded);
    }

    #[test]
    fn multiplier_one_is_constant_backoff() {
        let mut r = retry(4, 0, 20);
        r.multiplier = sp(1.0);
        assert_eq!(span(&r, None).adds, Dur::Secs(60));
    }
}
