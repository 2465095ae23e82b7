//! The reference arithmetic of a retry sequence.
//!
//! `attempts` n, per-attempt `timeout` t, `backoff` b, `multiplier` m and
//! `max_backoff` c add the sum over i = 1 .. n-1 of (t + min(b * m^(i-1), c)),
//! capped by `max_elapsed`. Each retry is a copy of the request.
//!
//! The sum is computed in closed form, never one attempt at a time past a
//! fixed number of steps: the growing (geometric) delays are followed step
//! by step for at most [`EXACT_STEPS`] steps, with the per-step rounding of
//! the reference semantics (each delay, in milliseconds, rounded up to a
//! whole millisecond by [`Dur::from_ms_f64`]; the f64 delay multiplied by m
//! once per step); from the cap on every term is the
//! same and the rest is one multiplication. A delay that cannot change any
//! more (0, or m ≤ 1) is linear at once. Only a sequence still growing after
//! [`EXACT_STEPS`] steps (1 < m < about 1.005 with more than 10,001
//! attempts) is summed approximately, see `rest`.
//! Every sum saturates to `unbounded` where the true value exceeds the
//! duration range.

use crate::manifest::model::Retry;
use crate::time::Dur;

/// Growing delays followed step by step before the closed form takes over.
/// Any multiplier of at least 1.005 reaches the cap, or the end of the
/// duration range, in fewer steps; so does any sequence of at most 10,001
/// attempts. The bound keeps a span O(1) whatever `attempts` says.
pub const EXACT_STEPS: u64 = 10_000;

/// The span of a retry sequence and the words that explain it.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub adds: Dur,
    pub why: String,
    /// Total attempts, including the first.
    pub attempts: u64,
}

/// The numbers of a retry sequence, with the defaults filled in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Params {
    pub n: u64,
    pub t: Dur,
    pub b: Dur,
    pub m: f64,
    pub cap: Option<Dur>,
}

impl Params {
    pub(crate) fn of(retry: &Retry, fallback_timeout: Option<Dur>) -> Params {
        Params {
            n: retry.attempts.as_ref().map_or(1, |a| a.value),
            t: retry
                .timeout
                .as_ref()
                .map(|t| t.value)
                .or(fallback_timeout)
                .unwrap_or(Dur::ZERO),
            b: retry.backoff.as_ref().map_or(Dur::ZERO, |b| b.value),
            m: retry.multiplier.as_ref().map_or(2.0, |m| m.value),
            cap: retry.max_backoff.as_ref().map(|c| c.value),
        }
    }

    /// A delay (in milliseconds) as the reference rounds it: the cap where
    /// the delay reaches it, else up to a whole millisecond (`unbounded`
    /// past the duration range): never above the cap, which is whole.
    pub(crate) fn capped(&self, delay: f64) -> Dur {
        match self.cap {
            Some(Dur::Ms(c)) if delay >= c as f64 => Dur::ms(c),
            _ => Dur::from_ms_f64(delay),
        }
    }

    /// Whether every term from this one on equals it: the delay is at the
    /// cap (or rounds to it), or the multiplier does not grow it.
    pub(crate) fn at_cap(&self, capped: Dur) -> bool {
        matches!(self.cap, Some(c @ Dur::Ms(_)) if capped == c) || self.m <= 1.0
    }
}

/// The running sum and its explanation: the first six growing terms, `…`
/// when there are more, then the constant tail as `k × (t + c)`.
pub(crate) struct Sum {
    pub total: Dur,
    pub terms: Vec<String>,
}

impl Sum {
    /// Adds `k` equal growing terms (as the reference adds them one by one:
    /// the words show the first six and `…`, and the sum stops growing once
    /// it is unbounded). Returns false once the sum is unbounded.
    pub(crate) fn growing(&mut self, t: Dur, capped: Dur, k: u64) -> bool {
        let term = t.add(capped);
        // How many of the k the reference would add before saturating.
        let taken = match (self.total, term) {
            (Dur::Ms(s), Dur::Ms(x)) if x > 0 => k.min(((u64::MAX - s) / x).saturating_add(1)),
            _ => k,
        };
        for _ in 0..taken.min(7) {
            self.word(format!("({t} + {capped})"));
        }
        self.total = self.total.add(term.times(taken));
        !self.total.is_unbounded()
    }

    pub(crate) fn word(&mut self, w: String) {
        if self.terms.len() < 6 {
            self.terms.push(w);
        } else if self.terms.len() == 6 {
            self.terms.push("…".to_string());
        }
    }

    /// The constant tail: `k` terms of (t + capped), written at once.
    pub(crate) fn tail(&mut self, t: Dur, capped: Dur, k: u64) {
        let term = t.add(capped);
        self.total = self.total.add(term.times(k));
        if k > 1 {
            self.terms.push(format!("{k} × ({t} + {capped})"));
        } else {
            self.terms.push(format!("({t} + {capped})"));
        }
    }
}

/// Computes the span. `fallback_timeout` is the call's own timeout.
pub fn span(retry: &Retry, fallback_timeout: Option<Dur>) -> Span {
    let p = Params::of(retry, fallback_timeout);
    let (mut total, terms) = sum(&p, EXACT_STEPS);
    let n = p.n;
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

/// The sum of the n - 1 retry terms and its words, following at most
/// `exact_steps` growing steps one by one.
pub(crate) fn sum(p: &Params, exact_steps: u64) -> (Dur, Vec<String>) {
    let mut acc = Sum {
        total: Dur::ZERO,
        terms: Vec::new(),
    };
    let mut delay = match p.b {
        Dur::Ms(ms) => ms as f64,
        Dur::Unbounded => f64::INFINITY,
    };
    let mut i = 1u64;
    let mut steps = 0u64;
    while i < p.n {
        let capped = p.capped(delay);
        let term = p.t.add(capped);
        if p.at_cap(capped) || term.is_unbounded() {
            acc.tail(p.t, capped, p.n - i);
            break;
        }
        let next = delay * p.m;
        // A delay the multiplier leaves unchanged (0) makes every remaining
        // term this one: linear.
        if next == delay || (next.is_nan() && delay.is_nan()) {
            acc.growing(p.t, capped, p.n - i);
            break;
        }
        if steps == exact_steps {
            rest(p, delay, p.n - i, &mut acc);
            break;
        }
        if !acc.growing(p.t, capped, 1) {
            break;
        }
        delay = next;
        i += 1;
        steps += 1;
    }
    (acc.total, acc.terms)
}

// The tail of a long retry sequence.
//
// The closed form of a retry sequence whose delays are still growing after
// `EXACT_STEPS` steps: only multipliers between 1 and about
// 1.005 with more than 10,001 attempts get here (hostile or mistaken input:
// `multiplier: 1.0000000000000002` with `attempts: 2^63`).
//
// The reference multiplies an f64 delay (in milliseconds) once per step
// and rounds each delay up to a whole millisecond. No closed form
// reproduces that bit for bit (each product is rounded, and the rounding
// errors depend on the whole path), so this part counts steps with
// logarithms instead: while the delay grows by less than a millisecond per
// step it counts, for each whole millisecond v, how many steps round up to
// v (so a delay creeping from 1000 ms to 1000.4 ms adds 1001 ms per step,
// as the reference does); after `BUCKETS` milliseconds it takes the
// geometric sum of the unrounded delays, rounded up once. The result can
// differ from what the reference would reach after its 10^18 steps only
// by those roundings; every sum saturates to `unbounded` where the true
// value exceeds the duration range.

/// Whole-millisecond values counted one by one before the plain geometric
/// sum.
pub const BUCKETS: u64 = 10_000;

/// Adds the `r` remaining terms, the first of delay `d` (finite, positive,
/// below the cap; `p.m` > 1), to `acc`.
pub(crate) fn rest(p: &Params, d: f64, r: u64, acc: &mut Sum) {
    let lm = (p.m - 1.0).ln_1p();
    // Steps j in 0..r whose delay d * m^j is at most x.
    let upto_incl = |x: f64| -> u64 {
        if x < d {
            return 0;
        }
        let k = ((x / d).ln() / lm).floor() + 1.0;
        if k.is_nan() || k >= r as f64 {
            r
        } else {
            k as u64
        }
    };
    // The reference stops growing where the delay rounds up to the cap
    // (is above c - 1 ms), or leaves the duration range.
    let end = match p.cap {
        Some(Dur::Ms(c)) => c as f64 - 1.0,
        _ => u64::MAX as f64,
    };
    let growing = upto_incl(end);
    let mut done = 0u64;
    let mut v = d.ceil() as u64;
    for _ in 0..BUCKETS {
        if done >= growing {
            break;
        }
        // The steps whose delay rounds up to v: those at most v.
        let upto = upto_incl((v as f64).min(end)).clamp(done, growing);
        if upto > done && !acc.growing(p.t, Dur::ms(v), upto - done) {
            return;
        }
        done = upto;
        v = v.saturating_add(1);
    }
    if done < growing {
        let k = growing - done;
        // d m^done (m^k - 1) / (m - 1), through logarithms so that neither
        // power overflows before the quotient does.
        let first = (d.ln() + done as f64 * lm).exp();
        let s = first * (k as f64 * lm).exp_m1() / (p.m - 1.0);
        let delays = if s.is_finite() {
            Dur::from_ms_f64(s)
        } else {
            Dur::Unbounded
        };
        acc.total = acc.total.add(p.t.times(k)).add(delays);
        if acc.total.is_unbounded() {
            return;
        }
    }
    if growing < r {
        let capped = match p.cap {
            Some(c @ Dur::Ms(_)) => c,
            _ => Dur::Unbounded,
        };
        acc.tail(p.t, capped, r - growing);
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
            timeout: sp(Dur::secs(timeout)),
            backoff: sp(Dur::secs(backoff)),
            ..Retry::default()
        }
    }

    #[test]
    fn three_attempts_29s_1s_doubling_add_61s() {
        let s = span(&retry(3, 29, 1), None);
        assert_eq!(s.adds, Dur::secs(61));
        assert_eq!(s.why, "3 attempts: (29s + 1s) + (29s + 2s) = 1m 1s");
    }

    #[test]
    fn max_backoff_caps_each_delay() {
        let mut r = retry(5, 10, 4);
        r.max_backoff = sp(Dur::secs(10));
        // (10+4) + (10+8) + (10+10) + (10+10) = 72
        assert_eq!(span(&r, None).adds, Dur::secs(72));
    }

    #[test]
    fn max_elapsed_caps_the_sequence() {
        let mut r = retry(10, 30, 1);
        r.max_elapsed = sp(Dur::secs(120));
        let s = span(&r, None);
        assert_eq!(s.adds, Dur::secs(120));
        assert!(s.why.ends_with("capped by max_elapsed 2m"), "{}", s.why);
    }

    #[test]
    fn call_timeout_is_the_default_attempt_timeout() {
        let r = Retry {
            attempts: sp(2),
            ..Retry::default()
        };
        assert_eq!(span(&r, Some(Dur::secs(5))).adds, Dur::secs(5));
    }

    #[test]
    fn huge_attempt_counts_saturate_instead_of_looping() {
        let mut r = retry(u64::MAX, 1, 1);
        r.max_backoff = sp(Dur::secs(1));
        assert_eq!(span(&r, None).adds, Dur::Unbounded);
        let r = retry(100_015, 0, 1);
        assert_eq!(span(&r, None).adds, Dur::Unbounded);
    }

    #[test]
    fn multiplier_one_is_constant_backoff() {
        let mut r = retry(4, 0, 20);
        r.multiplier = sp(1.0);
        assert_eq!(span(&r, None).adds, Dur::secs(60));
    }
}
