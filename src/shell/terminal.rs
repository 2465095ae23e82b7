//! Running a session: commands read line by line from a pipe (no prompt,
//! no escape codes, so a session can be scripted), or on a terminal with
//! rustyline's line editor, history and completion.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use rustyline::Editor;
use rustyline::error::ReadlineError;

use super::Shell;
use super::complete::Complete;
use super::inspect::counts;

/// Runs commands read line by line (no prompt, no escape codes). Returns
/// the exit code: 0, or 2 when a command failed.
pub fn run_lines(
    shell: &mut Shell,
    input: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
) -> u8 {
    let mut failed = false;
    for line in input.lines() {
        let Ok(line) = line else {
            let _ = writeln!(err, "error: standard input is not UTF-8 text");
            return 2;
        };
        let r = shell.exec(&line);
        let _ = out.write_all(r.out.as_bytes());
        let _ = out.flush();
        if let Some(e) = r.err {
            failed = true;
            let _ = writeln!(err, "{}", e.trim_end());
        }
        if let Some(w) = r.warning {
            let _ = writeln!(err, "{w}");
        }
        let _ = err.flush();
        if r.quit {
            break;
        }
    }
    u8::from(failed) * 2
}

/// `$XDG_STATE_HOME/replay-audit/history`, else `~/.local/state/...`.
fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/state"))
        })?;
    Some(base.join("replay-audit").join("history"))
}

/// Runs on a terminal with rustyline: history and tab completion. History
/// that cannot be read or written is skipped silently.
pub fn run_terminal(shell: &mut Shell) -> u8 {
    let helper = shell.completion();
    let Ok(mut rl) = Editor::<Complete, rustyline::history::DefaultHistory>::new() else {
        let stdin = std::io::stdin();
        return run_lines(
            shell,
            stdin.lock(),
            &mut std::io::stdout(),
            &mut std::io::stderr(),
        );
    };
    rl.set_helper(Some(helper));
    shell.interactive = true;
    let history = history_path();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    println!(
        "replay-audit shell: {}; `help` lists the commands",
        counts(&shell.findings)
    );
    loop {
        match rl.readline("what-if> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let r = shell.exec(&line);
                print!("{}", r.out);
                let _ = std::io::stdout().flush();
                if let Some(e) = r.err.or(r.warning) {
                    eprintln!("{}", e.trim_end());
                }
                if r.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => match shell.leave() {
                Some(w) => eprintln!("{w}"),
                None => break,
            },
            Err(_) => break,
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.save_history(h);
    }
    0
}
