//! Rule codes and names as the policy file writes them (`[severity]` keys,
//! waiver codes): only an exact code or name is a rule, and anything else
//! gets a "did you mean" naming every nearest candidate.

use crate::rules::{RULES, Rule};

/// The rule whose code or name is exactly `code`; else the help to show.
/// Nothing looser is accepted: `RH01` could mean RH001 or RH010, so a
/// waiver or severity written so is an error that names the candidates.
pub(crate) fn find_rule(code: &str) -> Result<&'static Rule, String> {
    RULES
        .iter()
        .find(|r| r.code == code || r.name == code)
        .ok_or_else(|| rule_help(code))
}

/// "did you mean" for a word that is no rule code or name: every code or
/// name at the smallest edit distance (a code differing only in case
/// first), else the pointer to `replay-audit rules`.
fn rule_help(code: &str) -> String {
    if let Some(r) = RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code)) {
        return format!("did you mean `{}`?", r.code);
    }
    let names = RULES.iter().flat_map(|r| [r.code, r.name]);
    let Some(best) = did_you_mean_all(code, names) else {
        return "`replay-audit rules` lists every rule".to_string();
    };
    const SHOWN: usize = 5;
    match best.as_slice() {
        [one] => format!("did you mean `{one}`?"),
        many => format!(
            "did you mean one of {}{}? `replay-audit rules` lists every rule",
            many.iter()
                .take(SHOWN)
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            match many.len().saturating_sub(SHOWN) {
                0 => String::new(),
                more => format!(" (or {more} more)"),
            }
        ),
    }
}

/// The candidates nearest to `word` within the distance
/// [`crate::diagnostics::suggest`] allows, in registry order.
fn did_you_mean_all<'a>(
    word: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<Vec<&'a str>> {
    let limit = (word.chars().count() / 3).max(2);
    let scored: Vec<(usize, &str)> = candidates
        .map(|c| (crate::diagnostics::edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    let min = scored.iter().map(|(d, _)| *d).min()?;
    Some(
        scored
            .into_iter()
            .filter(|(d, _)| *d == min)
            .map(|(_, c)| c)
            .collect(),
    )
}
