//! The `# clocks: NODE ROLE horizon=SECS window=SECS|none` rows of a
//! fixture's comment, checked against the horizon report's rows: the
//! clocks and audit fixtures state their exact seconds this way.

use std::path::Path;

use replay_audit::Analysis;
use replay_audit::report::horizon::rows;

/// `name=SECS` (or `name=none`) in seconds.
fn seconds(word: &str, name: &str) -> Option<u64> {
    let v = word
        .strip_prefix(name)
        .and_then(|w| w.strip_prefix('='))
        .unwrap_or_else(|| panic!("`{word}`: expected {name}=…"));
    (v != "none").then(|| v.parse().expect("seconds"))
}

/// Checks every `# clocks:` row of `text` against the analysis `a`, with a
/// line in `failures` for each row that differs; returns how many rows
/// there were.
pub fn check(text: &str, a: &Analysis, file: &Path, failures: &mut Vec<String>) -> usize {
    let mut checked = 0;
    for rest in text.lines().filter_map(|l| l.strip_prefix("# clocks:")) {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let (node, role) = (w[0], w[1]);
        let want = (seconds(w[2], "horizon"), seconds(w[3], "window"));
        let got: Vec<_> = rows(a, None, Some(node))
            .into_iter()
            .filter(|r| r.role == role)
            .map(|r| (r.horizon_seconds, r.window_seconds))
            .collect();
        if got != vec![want] {
            failures.push(format!(
                "{}: {node} {role}: want {want:?}, got {got:?}",
                file.display()
            ));
        }
        checked += 1;
    }
    checked
}
