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

/// Stand-ins for a line break inside a value, for serialisers (quick-junit)
/// that write text as given: U+FFFF and U+FFFE can come from no value (see
/// [`value`]), so after serialising [`restore_breaks`] turns every one into
/// a character reference. The reader gets the value's line break back; the
/// document gets no new line, so no line of the value can start a line of
/// the output (a CI runner takes `::error ...` at a line start as a
/// workflow command).
const LF: char = '\u{ffff}';
const CR: char = '\u{fffe}';

/// A manifest string for a JUnit field: forbidden characters shown, line
/// breaks as stand-ins (see [`restore_breaks`]).
pub fn value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push(LF),
            '\r' => out.push(CR),
            c if allowed(c) => out.push(c),
            c => push_shown(&mut out, c),
        }
    }
    out
}

/// The serialised document with the stand-ins of [`value`] as `&#10;` and
/// `&#13;`.
pub fn restore_breaks(xml: &str) -> String {
    xml.replace(LF, "&#10;").replace(CR, "&#13;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_are_shown_and_breaks_kept_as_references() {
        assert_eq!(value("a\u{fffe}b\u{1}c\td"), "a\\u{fffe}b␁c\td");
        assert_eq!(restore_breaks(&value("a\n::x\r\n")), "a&#10;::x&#13;&#10;");
        assert!(allowed('\u{fffd}') && allowed('\u{10000}') && !allowed('\u{ffff}'));
    }
}
