//! Where a YAML parser error really starts when a flow collection is left
//! open: `tested: [a, b` followed by more lines makes the parser stop
//! lines later (at the next `key:`), far from the `[` that is never closed.
//! [`unclosed_before`] finds that opener in one pass over the text before
//! the error, so the diagnostic can point at it.

/// The innermost `[` or `{` still open at (`line`, `col`) (1-based, column
/// in characters) that was opened on an earlier line: its line, column and
/// character. Quoted strings and comments are skipped; in block context
/// only a bracket that starts a value opens a collection (`a[0]` is text).
pub fn unclosed_before(text: &str, line: usize, col: usize) -> Option<(usize, usize, char)> {
    let mut open: Vec<(usize, usize, char)> = Vec::new();
    for (n, l) in text.lines().enumerate().take(line) {
        let n = n + 1;
        let mut quote: Option<char> = None;
        // Whether the next character may start a value (line start, after
        // `: `, `- `, `,` or an opener).
        let mut value_start = true;
        let mut prev = ' ';
        for (c_at, c) in l.chars().enumerate() {
            if n == line && c_at + 1 >= col {
                break;
            }
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
                prev = c;
                continue;
            }
            match c {
                '#' if prev == ' ' || prev == '\t' || c_at == 0 => break,
                '\'' | '"' if value_start || !open.is_empty() && "[{,: ".contains(prev) => {
                    quote = Some(c)
                }
                '[' | '{' if value_start || !open.is_empty() => open.push((n, c_at + 1, c)),
                ']' | '}' if !open.is_empty() => {
                    open.pop();
                }
                _ => {}
            }
            value_start = match c {
                ' ' | '\t' => value_start || prev == ':' || prev == '-' || prev == ',',
                '[' | '{' | ',' => true,
                _ => false,
            };
            prev = c;
        }
    }
    open.pop().filter(|&(l, _, _)| l < line)
}

#[cfg(test)]
mod tests {
    use super::unclosed_before;

    #[test]
    fn finds_the_opener_left_open() {
        let text = "a:\n  tested: [x,\n    y\nb: 1\n";
        assert_eq!(unclosed_before(text, 4, 2), Some((2, 11, '[')));
        // Closed on a later line: nothing is left open.
        let text = "a: [x,\n  y]\nb: {c: 1\n";
        assert_eq!(unclosed_before(text, 4, 1), Some((3, 4, '{')));
        assert_eq!(unclosed_before("a: [x, y]\nb: :\n", 2, 4), None);
        // Text, quotes and comments do not open anything.
        assert_eq!(
            unclosed_before("a: x[0\nb: ']['\nc: # [\nd: :\n", 4, 4),
            None
        );
        // An opener on the error's own line is the parser's own place.
        assert_eq!(unclosed_before("a: [x, :\n", 1, 8), None);
    }
}
