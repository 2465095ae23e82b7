//! The last guard on every output stream: no `##[` reaches standard output
//! or an output file. GitHub's runner acts on old-style workflow commands
//! (`##[error]`, `##[add-mask]`, `##[stop-commands]`) anywhere in a line
//! of a job's log, and JSON, SARIF and generated YAML carry manifest text
//! as data, where [`crate::diagnostics::neutralise`] does not reach (it
//! would change the data). There a `##[` can only stand inside a quoted
//! string, so its second `#` is written as the escape `\u0023`, which every
//! JSON and YAML reader decodes back to `#`: the data is the same, the log
//! holds no command. Text formats never hold a `##[` by then.

use std::io::{self, Write};

/// A writer that passes everything through except `##[`, written
/// `#\u0023[`, even when the sequence is split across writes.
pub struct NoCommands<W: Write> {
    inner: W,
    /// Trailing `#` bytes held back (0, 1 or 2) until the next byte shows
    /// whether they start `##[`.
    held: usize,
}

impl<W: Write> NoCommands<W> {
    pub fn new(inner: W) -> Self {
        NoCommands { inner, held: 0 }
    }

    fn release(&mut self) -> io::Result<()> {
        let held = std::mem::take(&mut self.held);
        self.inner.write_all(&b"##"[..held])
    }
}

impl<W: Write> Write for NoCommands<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0;
        for (i, &b) in buf.iter().enumerate() {
            match b {
                b'#' => {
                    self.inner.write_all(&buf[start..i])?;
                    start = i + 1;
                    if self.held == 2 {
                        self.inner.write_all(b"#")?;
                    } else {
                        self.held += 1;
                    }
                }
                b'[' if self.held == 2 => {
                    self.held = 0;
                    self.inner.write_all(b"#\\u0023")?;
                    start = i;
                }
                _ if self.held > 0 => {
                    self.release()?;
                    start = i;
                }
                _ => {}
            }
        }
        self.inner.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.release()?;
        self.inner.flush()
    }
}

/// Runs `write` on `w` through [`NoCommands`], flushing at the end.
pub fn write_through(
    w: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut w = NoCommands::new(w);
    write(&mut w)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(pieces: &[&str]) -> String {
        let mut w = NoCommands::new(Vec::new());
        for p in pieces {
            w.write_all(p.as_bytes()).unwrap();
        }
        w.flush().unwrap();
        String::from_utf8(w.inner).unwrap()
    }

    #[test]
    fn breaks_every_old_style_command_and_keeps_the_rest() {
        assert_eq!(through(&["a ##[error]x"]), "a #\\u0023[error]x");
        assert_eq!(
            through(&["###[x] # #[ ## end#"]),
            "##\\u0023[x] # #[ ## end#"
        );
        // Split across writes, at every place.
        let whole = "{\"m\": \"x ##[add-mask]y\"} #";
        for i in 0..whole.len() {
            assert_eq!(
                through(&[&whole[..i], &whole[i..]]),
                "{\"m\": \"x #\\u0023[add-mask]y\"} #"
            );
        }
        let v: serde_json::Value =
            serde_json::from_str(&through(&["{\"m\": \"##[error]\"}"])).unwrap();
        assert_eq!(v["m"], "##[error]");
    }
}
