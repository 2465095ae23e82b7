//! The man pages (roff): `replay-audit(1)`, the full page with every
//! command and option, and one `replay-audit-COMMAND(1)` page per command.
//! clap_mangen renders what clap knows (synopsis, description, options);
//! the sections it does not know (EXIT STATUS, ENVIRONMENT, FILES, SEE
//! ALSO) come from the tables of [`super`].

use clap_mangen::Man;

use super::{BIN, ENVIRONMENT, EXIT_STATUS, FILES, command, subcommands};

/// One rendered page: its file name (`replay-audit-check.1`) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub file: String,
    pub text: String,
}

/// Every page: the full one first, then one per command.
pub fn pages() -> Vec<Page> {
    let cmd = command();
    let mut all = vec![full(&cmd)];
    all.extend(subcommands(&cmd).map(command_page));
    all
}

/// The page of `name` (`None`: the full page), or `None` when no command
/// has that name.
pub fn page(name: Option<&str>) -> Option<Page> {
    let cmd = command();
    match name {
        None => Some(full(&cmd)),
        Some(n) => subcommands(&cmd)
            .find(|s| s.get_name() == n)
            .map(command_page),
    }
}

/// The names of the commands that have a page.
pub fn command_names() -> Vec<String> {
    subcommands(&command())
        .map(|s| s.get_name().to_string())
        .collect()
}

fn render(f: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = f(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// `replay-audit(1)`: global options, then every command with its synopsis
/// and options, then the sections clap does not know.
fn full(cmd: &clap::Command) -> Page {
    let man = Man::new(cmd.clone());
    let mut t = render(|b| {
        man.render_title(b)?;
        man.render_name_section(b)?;
        man.render_synopsis_section(b)?;
        man.render_description_section(b)?;
        man.render_options_section(b)
    });
    t.push_str(".SH COMMANDS\n");
    for sub in subcommands(cmd) {
        // The global options and --help are described once, above.
        let local = sub.clone().mut_args(|a| {
            let shared = a.is_global_set() || a.get_id() == "help";
            a.hide(shared)
        });
        let m = Man::new(local.clone());
        t.push_str(&format!(".SS \"{BIN} {}\"\n", sub.get_name()));
        if let Some(about) = sub.get_about() {
            t.push_str(&format!("{}\n", text(&about.to_string())));
        }
        t.push_str(".PP\n");
        t.push_str(&without_headings(&render(|b| m.render_synopsis_section(b))));
        if local.get_arguments().any(|a| !a.is_hide_set()) {
            t.push_str(&without_headings(&render(|b| m.render_options_section(b))));
        }
    }
    common_sections(&mut t, true);
    t.push_str(".SH \"SEE ALSO\"\n");
    let refs: Vec<String> = subcommands(cmd)
        .map(|s| format!("\\fB{BIN}\\-{}\\fR(1)", s.get_name()))
        .collect();
    t.push_str(&format!("{}\n", refs.join(", ")));
    t.push_str(&render(|b| man.render_version_section(b)));
    Page {
        file: format!("{BIN}.1"),
        text: t,
    }
}

/// `replay-audit-COMMAND(1)`.
fn command_page(sub: &clap::Command) -> Page {
    let source = format!("{BIN} {}", env!("CARGO_PKG_VERSION"));
    let man = Man::new(sub.clone()).source(source);
    let mut t = render(|b| {
        man.render_title(b)?;
        man.render_name_section(b)?;
        man.render_synopsis_section(b)?;
        man.render_description_section(b)
    });
    if sub.get_arguments().any(|a| !a.is_hide_set()) {
        t.push_str(&render(|b| man.render_options_section(b)));
    }
    common_sections(&mut t, false);
    t.push_str(&format!(
        ".SH \"SEE ALSO\"\n\\fB{BIN}\\fR(1), the full page: every command, the files read\n"
    ));
    Page {
        file: format!("{}.1", man_name(sub)),
        text: t,
    }
}

/// `replay-audit-check`: the page's name (clap's display name).
fn man_name(sub: &clap::Command) -> String {
    sub.get_display_name()
        .map_or_else(|| format!("{BIN}-{}", sub.get_name()), str::to_string)
}

/// EXIT STATUS, ENVIRONMENT and (on the full page) FILES.
fn common_sections(t: &mut String, files: bool) {
    let mut section = |title: &str, rows: &[(&str, &str)]| {
        t.push_str(&format!(".SH \"{title}\"\n"));
        for (name, what) in rows {
            t.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", text(name), text(what)));
        }
    };
    section("EXIT STATUS", EXIT_STATUS);
    section("ENVIRONMENT", ENVIRONMENT);
    if files {
        section("FILES", FILES);
    }
}

/// A section's body without its `.SH` line, to nest it under a command.
fn without_headings(roff: &str) -> String {
    roff.lines()
        .filter(|l| !l.starts_with(".SH"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Plain text as roff: backslashes and hyphens escaped, a line that would
/// start with a control character protected, `code spans` in bold.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut bold = false;
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '`' => {
                out.push_str(if bold { "\\fR" } else { "\\fB" });
                bold = !bold;
            }
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    if bold {
        out.push_str("\\fR");
    }
    if out.starts_with('.') || out.starts_with('\'') {
        out.insert_str(0, "\\&");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn roff_text_is_escaped() {
        assert_eq!(text("a-b `c` \\"), "a\\-b \\fBc\\fR \\e");
        assert_eq!(text(".TH x"), "\\&.TH x");
        assert_eq!(text("'x"), "\\&'x");
        assert_eq!(text("`odd"), "\\fBodd\\fR");
    }
}
