//! The retry arithmetic as it was computed before the closed form: one
//! attempt at a time (it hung on `attempts: 2^63` with a multiplier just
//! above 1). Kept only as the test oracle of [`super::retry::span`], which
//! must agree with it exactly, words included, wherever it can finish.

use proptest::prelude::*;

use super::retry::{EXACT_STEPS, Params, Span, span, sum};
use crate::diagnostics::Loc;
use crate::manifest::model::{Retry, Sp};
use crate::time::Dur;

/// The former `span`, verbatim but for milliseconds (each delay rounded
/// up to a whole millisecond, as [`Dur::from_ms_f64`] does).
fn old_span(retry: &Retry, fallback_timeout: Option<Dur>) -> Span {
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
        Dur::Ms(ms) => ms as f64,
        Dur::Unbounded => f64::INFINITY,
    };
    let mut i = 1u64;
    while i < n {
        let capped = match cap {
            Some(Dur::Ms(c)) if delay >= c as f64 => Dur::ms(c),
            _ => Dur::from_ms_f64(delay),
        };
        let term = t.add(capped);
        let at_cap = matches!(cap, Some(c @ Dur::Ms(_)) if capped == c) || m <= 1.0;
        if at_cap || term.is_unbounded() {
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

fn sp<T>(v: T) -> Option<Sp<T>> {
    Some(Sp::new(v, Loc::default()))
}

/// Durations: mostly small whole seconds, some milliseconds, sometimes
/// near the end of the range or unbounded.
fn dur() -> impl Strategy<Value = Dur> {
    prop_oneof![
        6 => (0u64..=120).prop_map(Dur::secs),
        2 => (0u64..=120_000).prop_map(Dur::ms),
        3 => (0u64..=10_000_000).prop_map(Dur::secs),
        1 => (u64::MAX / 4..=u64::MAX).prop_map(Dur::ms),
        1 => Just(Dur::Unbounded),
    ]
}

/// Multipliers as manifests write them, and awkward ones near 1.
fn multiplier() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(1.5),
        Just(2.0),
        Just(3.0),
        (0.01f64..4.0),
        (1.0f64..1.01),
        Just(1.000_000_000_000_000_2),
        (1u32..=40).prop_map(|k| 1.0 + f64::from(k) / 10.0),
    ]
}

fn retry() -> impl Strategy<Value = (Retry, Option<Dur>)> {
    (
        proptest::option::of(0u64..=10_000),
        proptest::option::of(dur()),
        proptest::option::of(dur()),
        proptest::option::of(multiplier()),
        proptest::option::of(dur()),
        proptest::option::of(dur()),
        proptest::option::of(dur()),
    )
        .prop_map(
            |(attempts, timeout, backoff, m, cap, max_elapsed, fallback)| {
                let r = Retry {
                    attempts: attempts.and_then(sp),
                    timeout: timeout.and_then(sp),
                    backoff: backoff.and_then(sp),
                    multiplier: m.and_then(sp),
                    max_backoff: cap.and_then(sp),
                    max_elapsed: max_elapsed.and_then(sp),
                    ..Retry::default()
                };
                (r, fallback)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Same seconds, same words, same attempts as the step-by-step loop,
    /// for up to 10,000 attempts and any delays, multipliers, caps,
    /// max_elapsed and call timeouts.
    #[test]
    fn closed_form_equals_the_old_loop((r, fallback) in retry()) {
        prop_assert_eq!(span(&r, fallback), old_span(&r, fallback));
    }

    /// Past the exact steps (forced early here), the logarithmic count of
    /// the rounded delays stays within a thousandth of the loop's sum, and
    /// agrees on whether it is unbounded.
    #[test]
    fn the_growing_tail_is_close_to_the_old_loop(
        n in 2u64..=10_000,
        t in 0u64..=60,
        b in 1u64..=30,
        m in prop_oneof![(1.0001f64..1.01), (1.01f64..3.0)],
        cap in proptest::option::of(1u64..=100_000),
        exact in 0u64..=20,
    ) {
        let r = Retry {
            attempts: sp(n),
            timeout: sp(Dur::secs(t)),
            backoff: sp(Dur::secs(b)),
            multiplier: sp(m),
            max_backoff: cap.map(Dur::secs).and_then(sp),
            ..Retry::default()
        };
        let want = old_span(&r, None).adds;
        let (got, _) = sum(&Params::of(&r, None), exact);
        match (got, want) {
            (Dur::Ms(g), Dur::Ms(w)) => {
                let diff = g.abs_diff(w) as f64;
                prop_assert!(diff <= (w as f64) / 1000.0 + 1000.0, "{got} vs {want}");
            }
            _ => prop_assert_eq!(got, want),
        }
    }
}

#[test]
fn exact_steps_cover_every_multiplier_from_1_005() {
    // From 1 s, m = 1.005 leaves the duration range within EXACT_STEPS.
    let steps = ((u64::MAX as f64).ln() / 1.005f64.ln()).ceil() as u64;
    assert!(steps < EXACT_STEPS, "{steps}");
}
