//! Places between the manifest's and the protocol's counting: the loader's
//! [`Loc`] is a 1-based line and a 1-based column in characters, LSP's
//! `Position` a 0-based line and a 0-based offset in UTF-16 code units.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};

use crate::diagnostics::Loc;

/// Line `index` (from 0) of `text`, without its line break.
pub fn line(text: &str, index: u32) -> &str {
    let l = text.split('\n').nth(index as usize).unwrap_or("");
    l.strip_suffix('\r').unwrap_or(l)
}

/// The UTF-16 offset of the character `chars` characters into `line`.
fn utf16_of(line: &str, chars: usize) -> u32 {
    line.chars().take(chars).map(char::len_utf16).sum::<usize>() as u32
}

/// The byte offset in `line` of the UTF-16 offset `units` (the end of the
/// line if it is beyond it, the character's start if it falls inside one).
pub fn byte_of(line: &str, units: u32) -> usize {
    let mut seen = 0u32;
    for (b, c) in line.char_indices() {
        if seen >= units {
            return b;
        }
        seen += c.len_utf16() as u32;
        if seen > units {
            return b;
        }
    }
    line.len()
}

/// The range of the value the finding or error at `loc` is about: from its
/// column to the end of the value there (a quoted or flow value whole),
/// at least one character.
pub fn range_of(text: &str, loc: Loc) -> Range {
    let index = loc.line.saturating_sub(1);
    let l = line(text, index);
    let chars = loc.col.saturating_sub(1) as usize;
    let at = l.char_indices().nth(chars).map_or(l.len(), |(b, _)| b);
    let len = crate::report::diagnostic::value_len(&l[at..]).max(1);
    let end_chars = chars + l[at..(at + len).min(l.len())].chars().count().max(1);
    Range::new(
        Position::new(index, utf16_of(l, chars)),
        Position::new(index, utf16_of(l, end_chars).max(utf16_of(l, chars) + 1)),
    )
}

/// The position of byte `offset` of `text`.
pub fn position_at(text: &str, offset: usize) -> Position {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() as u32;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let units = before[start..].chars().map(char::len_utf16).sum::<usize>();
    Position::new(line, units as u32)
}

/// The id under `pos`: the run of characters an id may hold (letters,
/// digits, `-`, `_`, `.`, `/`, `@`), or `None` on anything else.
pub fn word_at(text: &str, pos: Position) -> Option<String> {
    let l = line(text, pos.line);
    let at = byte_of(l, pos.character);
    let in_id = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '@');
    let start = l[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| in_id(c))
        .last()
        .map_or(at, |(b, _)| b);
    let end = l[at..]
        .char_indices()
        .find(|&(_, c)| !in_id(c))
        .map_or(l.len(), |(b, _)| at + b);
    (start < end).then(|| l[start..end].to_string())
}

/// Whether the id under `pos` is a mapping key (`id:`), not a value.
pub fn is_key(text: &str, pos: Position) -> bool {
    let l = line(text, pos.line);
    let at = byte_of(l, pos.character);
    let rest = l[at..].trim_start_matches(|c: char| c.is_alphanumeric() || "-_./@".contains(c));
    rest.starts_with(':')
}

/// The local path a `file:` URI names (percent-escapes decoded).
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str().strip_prefix("file://")?;
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => {
                let h = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(h, 16).ok()?);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows: the drive letter comes after the slash.
    let path = match path.as_bytes() {
        [b'/', _, b':', ..] if cfg!(windows) => path[1..].to_string(),
        _ => path,
    };
    Some(PathBuf::from(path))
}

/// The `file:` URI of a local path, every byte outside the unreserved
/// set and `/` percent-escaped.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let text = absolute.to_str()?.replace('\\', "/");
    let mut s = String::from("file://");
    if !text.starts_with('/') {
        s.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_count_utf16_units() {
        // `é` is one UTF-16 unit, `𝄞` two: the value at character 7 (from
        // 1) starts at unit 7 (`a: é𝄞 ` is a, :, space, é, 𝄞𝄞, space).
        let text = "x: 1\na: é𝄞 1h # c\n";
        let r = range_of(
            text,
            Loc {
                file: 0,
                line: 2,
                col: 7,
            },
        );
        assert_eq!(r, Range::new(Position::new(1, 7), Position::new(1, 9)));
        assert_eq!(byte_of("é𝄞 1h", 3), "é𝄞".len());
    }

    #[test]
    fn words_and_uris() {
        let text = "  to: payout-worker # x\n";
        assert_eq!(
            word_at(text, Position::new(0, 9)).as_deref(),
            Some("payout-worker")
        );
        assert_eq!(word_at(text, Position::new(0, 5)), None);
        let uri = uri_of(Path::new("/tmp/a b/m.yaml")).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/m.yaml");
        assert_eq!(path_of(&uri), Some(PathBuf::from("/tmp/a b/m.yaml")));
    }
}
