//! The characters XML 1.0 forbids, for every XML output (JUnit, the HTML
//! report and its inline SVG): a manifest string may hold any of them, and
//! one raw in the document makes it not well-formed, so a CI's JUnit
//! reader rejects the whole report.
//!
//! XML 1.0 `Char` is tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD and
//! U+10000 and up (a Rust string holds no surrogate). The rest, C0
//! controls and U+FFFE, U+FFFF, are shown instead: a C0 control as its
//! Unicode control picture (`␛` for ESC, as on the terminal), U+FFFE and
//! U+FFFF as the text `\u{fffe}` and `\u{ffff}`.

/// Whether XML 1.0 allows `c` in a document.
pub fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || !(c < ' ' || c == '\u{fffe}' || c == '\u{ffff}')
}

/// Appends how a character XML forbids is shown.
pub fn push_shown(out: &mut String, c: char) {
    match c {
        '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// A manifest string for a JUnit field: inert as on a terminal
/// ([`crate::diagnostics::inert`]: a CI runner printing the report reads
/// neither a `::` line nor `##[` as a workflow command, and no control
/// character or bidirectional override is raw), line breaks kept so the
/// text reads back the same, and what XML still forbids (U+FFFE, U+FFFF)
/// shown. (A character reference, `&#10;`, would keep every break for XML
/// readers, but JUnit readers such as quick-junit's reject it.)
pub fn value(s: &str) -> String {
    let inert = crate::diagnostics::inert(s);
    let mut out = String::with_capacity(inert.len());
    for c in inert.chars() {
        if allowed(c) {
            out.push(c);
        } else {
            push_shown(&mut out, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_and_breaks_are_shown() {
        assert_eq!(value("a\u{fffe}b\u{1}c\td"), "a\\u{fffe}b␁c\td");
        assert_eq!(
            value("a\n ::x\r\n::y\nz ##[error]"),
            "a\n :\u{200b}:x\r\n:\u{200b}:y\nz #\u{200b}#[error]"
        );
        assert!(allowed('\u{fffd}') && allowed('\u{10000}') && !allowed('\u{ffff}'));
    }
}
