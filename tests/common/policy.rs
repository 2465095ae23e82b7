//! What the policy tests share: the binary run in a folder, as CI runs it
//! (no colours, "today" fixed at 2026-12-01 so that waiver expiry is
//! reproducible), and what it wrote.

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;

/// The exit code and outputs of one run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    #[allow(dead_code, reason = "not every test file reads standard error")]
    pub stderr: String,
}

/// `replay-audit ARGS` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Run {
    let out = cargo_bin_cmd!("replay-audit")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("REPLAY_AUDIT_TODAY", "2026-12-01")
        .output()
        .expect("runs");
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
