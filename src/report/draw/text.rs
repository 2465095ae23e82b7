//! Text written into the HTML report and its SVG without a temporary
//! string per value: XML escaping appended to the output ([`push_xml`],
//! [`Xml`] in a format string) and coordinates with one decimal
//! ([`Tenths`]). A report of a large architecture writes millions of them,
//! so each skips what it can: runs of plain ASCII are copied whole, and a
//! coordinate is written from its integer tenths when that is certain to
//! give the same digits as `{:.1}`.

use std::fmt;

/// Appends `s` XML/HTML-escaped to `out` (see [`super::xml_escape`] for
/// what each character becomes).
pub fn push_xml(out: &mut String, s: &str) {
    write_xml(out, s).expect("a String takes any text");
}

/// Writes `s` escaped: runs of plain ASCII whole, each other character as
/// its entity or shown form.
fn write_xml<W: fmt::Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    let mut rest = s;
    let mut buf = String::new();
    while !rest.is_empty() {
        let run = rest.bytes().position(|b| !plain(b)).unwrap_or(rest.len());
        out.write_str(&rest[..run])?;
        rest = &rest[run..];
        let Some(c) = rest.chars().next() else {
            break;
        };
        match entity(c) {
            // `##[` would be a workflow command in a CI log showing the
            // file: its first `#` as a reference reads the same.
            _ if rest.starts_with("##[") => out.write_str("&#35;")?,
            Some(e) => out.write_str(e)?,
            None => {
                buf.clear();
                push_other(&mut buf, c);
                out.write_str(&buf)?;
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    Ok(())
}

/// A printable ASCII byte that escaping leaves as it is.
fn plain(b: u8) -> bool {
    matches!(b, 0x20..=0x7e) && !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'' | b'#')
}

/// The entity or reference that stands for `c`, if one does.
fn entity(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        '\'' => "&#39;",
        // A line break as a reference: the same text to a reader, and
        // no manifest line starts a line of the file (a CI log showing
        // it would take `::error` at a line start as a command).
        '\n' => "&#10;",
        '\r' => "&#13;",
        _ => return None,
    })
}

/// A character without an entity: shown when XML forbids it or it could
/// mislead a reader, else itself.
fn push_other(out: &mut String, ch: char) {
    match ch {
        // XML 1.0 forbids C0 controls, U+FFFE and U+FFFF: show them.
        c if !crate::report::xml::allowed(c) => crate::report::xml::push_shown(out, c),
        // Other controls (C1) and the bidirectional overrides that
        // could reorder what a reader sees.
        c if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') => {
            out.push_str(&crate::diagnostics::inert(c.encode_utf8(&mut [0; 4])))
        }
        c => out.push(c),
    }
}

/// A string XML-escaped where it is formatted (`{}`), without a copy.
pub struct Xml<'a>(pub &'a str);

impl fmt::Display for Xml<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_xml(f, self.0)
    }
}

/// A number formatted as `{:.1}` formats it.
#[derive(Clone, Copy)]
pub struct Tenths(pub f64);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        // `{:.1}` rounds the exact binary value; `x * 10` is within a
        // millionth of it below 1e9, so away from a half the
        // rounded tenths are the same. Elsewhere (and for negative numbers,
        // with their `-0.0`) the standard formatting decides.
        if x.is_sign_positive() && x < 1e9 {
            let y = x * 10.0;
            let frac = y - y.floor();
            if (frac - 0.5).abs() > 1e-3 {
                let t = y.round() as u64;
                return write!(f, "{}.{}", t / 10, t % 10);
            }
        }
        write!(f, "{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenths_are_written_as_the_standard_formatting_writes_them() {
        let mut xs = vec![
            0.0, 0.05, 0.15, 0.25, 0.35, 0.95, 1e9, 2.5e12, -0.0, -0.04, -3.25,
        ];
        xs.extend([
            f64::NAN,
            f64::INFINITY,
            12.349_999,
            99.95,
            7.8 * 13.0 + 26.0,
        ]);
        // Sums and means of layout steps, as the drawing computes them.
        for i in 0..20_000u32 {
            let v = f64::from(i);
            xs.push(v * 7.8 / 3.0 + 24.0);
            xs.push(v / 7.0);
            xs.push(v * 0.05);
        }
        for x in xs {
            assert_eq!(Tenths(x).to_string(), format!("{x:.1}"), "{x:e}");
        }
    }

    #[test]
    fn escaping_in_place_and_in_a_format_string_agree() {
        let s = "a<b>&\"c'\n\r\t\u{1}\u{7f}\u{85}\u{202e}\u{fffe}é`x` plain # ##[error]";
        let mut out = String::from("keep:");
        push_xml(&mut out, s);
        assert_eq!(
            out,
            "keep:a&lt;b&gt;&amp;&quot;c&#39;&#10;&#13;\t␁\u{2421}\\u{85}\\u{202e}\\u{fffe}é`x` plain # &#35;#[error]"
        );
        assert_eq!(format!("{}", Xml(s)), out["keep:".len()..]);
    }
}
