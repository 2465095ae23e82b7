//! The closed form of a retry sequence whose delays are still growing after
//! [`super::retry::EXACT_STEPS`] steps: only multipliers between 1 and about
//! 1.005 with more than 10,001 attempts get here (hostile or mistaken input:
//! `multiplier: 1.0000000000000002` with `attempts: 2^63`).
//!
//! The reference multiplies an f64 delay (in milliseconds) once per step
//! and rounds each delay up to a whole millisecond. No closed form
//! reproduces that bit for bit (each product is rounded, and the rounding
//! errors depend on the whole path), so this part counts steps with
//! logarithms instead: while the delay grows by less than a millisecond per
//! step it counts, for each whole millisecond v, how many steps round up to
//! v (so a delay creeping from 1000 ms to 1000.4 ms adds 1001 ms per step,
//! as the reference does); after [`BUCKETS`] milliseconds it takes the
//! geometric sum of the unrounded delays, rounded up once. The result can
//! differ from what the reference would reach after its 10^18 steps only
//! by those roundings; every sum saturates to `unbounded` where the true
//! value exceeds the duration range.

use super::retry::{Params, Sum};
use crate::time::Dur;

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
