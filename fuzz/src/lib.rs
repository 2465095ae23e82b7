//! Shared pieces of the fuzz targets: an `arbitrary` builder for the
//! generated architectures of `tests/common/gen.rs`, and a function that
//! runs every report format over a loaded manifest.

#[path = "../../tests/common/gen.rs"]
pub mod generate;

use arbitrary::{Result, Unstructured};
use generate::{Arch, Comp, Intent, Link, Replay, Retry, UNBOUNDED};
use replay_audit::manifest::Manifest;
use replay_audit::{analysis, report, rules};

/// Durations that matter: small, around the usual windows, huge, unbounded.
fn dur(u: &mut Unstructured) -> Result<u64> {
    Ok(match u.int_in_range(0u8..=9)? {
        0 => 0,
        1 => u.int_in_range(1..=120)?,
        2 => 3600,
        3 => 86_400,
        4 => u.int_in_range(1..=1_209_600)?,
        5 => UNBOUNDED,
        6 => u64::MAX / 2,
        7 => u.arbitrary()?,
        8 => 300,
        _ => u.int_in_range(1..=100_000)?,
    })
}

fn opt_dur(u: &mut Unstructured) -> Result<Option<u64>> {
    Ok(if u.arbitrary()? { Some(dur(u)?) } else { None })
}

pub fn arch(u: &mut Unstructured) -> Result<Arch> {
    let n = u.int_in_range(1..=9)?;
    let mut comps = Vec::new();
    for _ in 0..n {
        let nl = u.int_in_range(0..=4)?;
        let mut links = Vec::new();
        for _ in 0..nl {
            links.push(Link {
                ty: u.arbitrary()?,
                to: u.arbitrary()?,
                retry: if u.arbitrary()? {
                    Some(Retry {
                        attempts: u.arbitrary()?,
                        timeout: dur(u)?,
                        backoff: dur(u)?,
                        multiplier: u.arbitrary()?,
                        max_backoff: opt_dur(u)?,
                        max_elapsed: opt_dur(u)?,
                    })
                } else {
                    None
                },
                within: opt_dur(u)?,
                max_times: u.arbitrary()?,
                passes_key: u.arbitrary()?,
                claim: u.arbitrary()?,
            });
        }
        comps.push(Comp {
            kind: u.arbitrary()?,
            regions: u.arbitrary()?,
            active_active: u.arbitrary()?,
            links,
            retention: opt_dur(u)?,
            window: opt_dur(u)?,
            visibility: opt_dur(u)?,
            max_receives: u.arbitrary()?,
            max_backlog: opt_dur(u)?,
            accepts_key: u.arbitrary()?,
            replication: u.arbitrary()?,
        });
    }
    let ni = u.int_in_range(0..=3)?;
    let mut intents = Vec::new();
    for _ in 0..ni {
        let nr = u.int_in_range(0..=2)?;
        let mut replays = Vec::new();
        for _ in 0..nr {
            replays.push(Replay {
                enters_at: u.arbitrary()?,
                within: dur(u)?,
            });
        }
        intents.push(Intent {
            origin: u.arbitrary()?,
            effect: u.arbitrary()?,
            per_attempt: u.arbitrary()?,
            replays,
        });
    }
    Ok(Arch {
        regions: u.int_in_range(0..=3)?,
        detection: dur(u)?,
        catch_up: dur(u)?,
        comps,
        intents,
    })
}

/// Analyses `m` and renders the output formats `sel` picks (every format
/// is picked by some `sel`); panics are the finding. SARIF embeds the help
/// of every rule, which costs more than the rest together, so it is
/// rendered for one `sel` in eight.
pub fn run_all(m: &Manifest, sel: u8) -> usize {
    let a = analysis::analyse(m);
    let findings = rules::run(&a);
    let waived: Vec<Option<&str>> = findings
        .iter()
        .enumerate()
        .map(|(i, _)| (i % 2 == 0).then_some("fuzz"))
        .collect();
    let intents: Vec<&str> = m.intents.iter().map(|i| i.id.as_str()).collect();
    let mut total = 0;
    total += report::table::render(&m.sources, &findings, false).len();
    total += report::table::render(&m.sources, &findings, true).len();
    total += report::json::render(&m.sources, &findings).len();
    if sel.is_multiple_of(8) {
        total += report::sarif::render_with(&m.sources, &findings, Some(m), &waived).len();
    }
    total += report::junit::render_with(&m.sources, &intents, &findings, &waived).len();
    total += report::github::render(&m.sources, &findings).len();
    total += report::markdown::render_with(&m.sources, &findings, Some(m)).len();
    if sel & 0x10 != 0 {
        let review = report::review::build(&a, &findings);
        total += report::review_md::render(&review).len();
        total += report::review_html::render(&review).len();
    }
    if sel & 0x20 != 0 {
        let view = report::draw::view(m, &findings);
        total += report::draw::dot(&view, "fuzz").len();
        total += report::draw::mermaid(&view).len();
        total += report::draw::svg(&view, "fuzz").len();
    }
    let rows = report::horizon::rows(&a, None, None);
    total += report::horizon::render_text(&rows).len();
    total += report::horizon::render_json(&rows).len();
    let req = replay_audit::whatif::required(&a, None, None);
    total += replay_audit::whatif::render_required_text(&req).len();
    total += replay_audit::whatif::render_required_json(&req).len();
    total
}
