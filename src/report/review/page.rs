//! The review page written in pieces: the text of a section is gathered in
//! a buffer and handed to the writer once it is a chunk long, so the page
//! (15x the manifest for HTML) is never whole in memory. Rendered for a
//! `String` instead, the buffer is the page and nothing is handed on.

use std::fmt;
use std::io;

use super::model::{IntentReview, Status};

/// How long the gathered text grows before it is written.
const CHUNK: usize = 1 << 16;

pub struct Page<'a> {
    /// The text not yet handed to the writer.
    pub text: String,
    /// `None`: the page is built whole in `text`.
    out: Option<&'a mut dyn io::Write>,
}

impl<'a> Page<'a> {
    /// A page written into `out` as it is made.
    pub fn to(out: &'a mut dyn io::Write) -> Self {
        Page {
            text: String::with_capacity(2 * CHUNK),
            out: Some(out),
        }
    }

    /// A page built whole in memory.
    pub fn in_memory() -> Page<'static> {
        Page {
            text: String::new(),
            out: None,
        }
    }

    pub fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
    }

    pub fn push(&mut self, c: char) {
        self.text.push(c);
    }

    /// Hands the text gathered so far to the writer once it is a chunk long.
    pub fn spill(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(out) if self.text.len() >= CHUNK => {
                out.write_all(self.text.as_bytes())?;
                self.text.clear();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Hands the rest to the writer; the text of an in-memory page.
    pub fn finish(mut self) -> io::Result<String> {
        if let Some(out) = &mut self.out {
            out.write_all(self.text.as_bytes())?;
            self.text.clear();
        }
        Ok(self.text)
    }
}

/// The page `write` makes, as one string (for tests and small reviews).
pub fn string(write: impl FnOnce(&mut Page<'_>) -> io::Result<()>) -> String {
    let mut page = Page::in_memory();
    // An in-memory page hands nothing on, so nothing fails.
    write(&mut page).map_or_else(|_| String::new(), |()| page.text)
}

/// The page `write` makes, written into `out` as it is made; the first
/// failed write ends it.
pub fn write_to(
    out: &mut dyn io::Write,
    write: impl FnOnce(&mut Page<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut page = Page::to(out);
    write(&mut page)?;
    page.finish().map(drop)
}

/// How a format writes the two parts of a page that belong to one intent:
/// its section, and its entry in the test plan at the end.
#[derive(Clone, Copy)]
pub struct Parts {
    pub section: fn(&mut Page<'_>, &IntentReview),
    pub plan: fn(&mut Page<'_>, &IntentReview),
}

/// An intent as a page shows it: by id in the contents, by its answers'
/// statuses in the counts at the top, and by its two parts.
pub trait Intent: Send {
    fn id(&self) -> &str;
    /// How many of its answers have status `st`.
    fn count(&self, st: Status) -> usize;
    fn section(&self, s: &mut Page<'_>, parts: Parts);
    fn plan(&self, s: &mut Page<'_>, parts: Parts);
}

/// A review is written out when a page is made from it.
impl Intent for IntentReview {
    fn id(&self) -> &str {
        &self.id
    }

    fn count(&self, st: Status) -> usize {
        self.answers.iter().filter(|a| a.status == st).count()
    }

    fn section(&self, s: &mut Page<'_>, parts: Parts) {
        (parts.section)(s, self);
    }

    fn plan(&self, s: &mut Page<'_>, parts: Parts) {
        (parts.plan)(s, self);
    }
}

/// An intent's two parts written as soon as its review is made, on the
/// thread that made it, and the review freed there: the counts at the top
/// of a page need every intent's statuses before the first section is
/// written, so each intent is kept until then, as its text, written on
/// rayon's threads as the reviews are made.
#[derive(Debug, Clone)]
pub struct Written {
    id: String,
    statuses: Box<[Status]>,
    section: Box<str>,
    plan: Box<str>,
}

impl Written {
    pub fn of(i: IntentReview, parts: Parts) -> Written {
        let write = |part: fn(&mut Page<'_>, &IntentReview)| {
            let mut p = Page::in_memory();
            part(&mut p, &i);
            // Kept until the page is written: without the slack of growth.
            p.text.into_boxed_str()
        };
        Written {
            section: write(parts.section),
            plan: write(parts.plan),
            statuses: i.answers.iter().map(|a| a.status).collect(),
            id: i.id,
        }
    }
}

impl Intent for Written {
    fn id(&self) -> &str {
        &self.id
    }

    fn count(&self, st: Status) -> usize {
        self.statuses.iter().filter(|&&s| s == st).count()
    }

    fn section(&self, s: &mut Page<'_>, _: Parts) {
        s.push_str(&self.section);
    }

    fn plan(&self, s: &mut Page<'_>, _: Parts) {
        s.push_str(&self.plan);
    }
}

impl fmt::Write for Page<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.push_str(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn a_written_page_is_the_in_memory_page() {
        let fill = |p: &mut Page<'_>| -> io::Result<()> {
            for k in 0..40_000 {
                let _ = writeln!(p, "line {k}");
                p.spill()?;
            }
            Ok(())
        };
        let mut whole = Page::in_memory();
        fill(&mut whole).unwrap();
        let whole = whole.finish().unwrap();
        let mut out = Vec::new();
        let mut p = Page::to(&mut out);
        fill(&mut p).unwrap();
        assert_eq!(p.finish().unwrap(), "");
        assert!(whole.len() > 3 * CHUNK);
        assert_eq!(String::from_utf8(out).unwrap(), whole);
    }

    #[test]
    fn a_failing_writer_stops_the_page() {
        struct Full;
        impl io::Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut p = Page::to(&mut full);
        p.push_str(&"x".repeat(CHUNK));
        assert_eq!(p.spill().unwrap_err().to_string(), "disk full");
    }
}
