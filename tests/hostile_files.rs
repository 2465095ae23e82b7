//! Files a pull request controls (every file of the tree, symbolic links
//! included) can neither leak what they point at nor be destroyed:
//! - a file the tool finds is never read through a link; a file named on
//!   the command line is read bounded, and one holding control characters
//!   is "not a text file", shown not at all;
//! - no writer replaces an input of the run or writes through a link;
//! - a failed write leaves the old file as it was.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/incident-dlq-redrive.yaml"
);

/// What must never reach stderr.
const CANARY: &str = "hunter2-canary";
const SECRETS: &[u8] = b"SECRET=hunter2\0PATH=/bin\0HOME=/root\0";

fn cmd(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    // Only the canary in the environment, so /proc/self/environ is known.
    c.current_dir(dir)
        .env_clear()
        .env("REPLAY_AUDIT_CANARY", CANARY);
    c
}

/// `ra/m.yaml` (a manifest with findings) and `env.txt` (NUL-separated
/// secrets, as /proc/self/environ holds them).
fn tree() -> TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("ra")).unwrap();
    std::fs::copy(FIXTURE, d.path().join("ra/m.yaml")).unwrap();
    std::fs::write(d.path().join("env.txt"), SECRETS).unwrap();
    d
}

/// Runs `args` in `dir`: exit code, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = cmd(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `args` fail with exit code 2, exactly `stderr`, nothing of the secrets.
fn refused(dir: &Path, args: &[&str], stderr: &str) {
    let (code, out, err) = run(dir, args);
    assert_eq!(err, stderr, "stderr of {args:?}");
    assert_eq!(code, Some(2), "exit code of {args:?}");
    assert_eq!(out, "", "stdout of {args:?}");
    for secret in [CANARY, "hunter2", "/bin", "/root"] {
        assert!(!err.contains(secret), "{args:?} leaks {secret}: {err}");
    }
}

const LINK_HELP: &str =
    "help: commit the policy as a regular file, or name the policy to use with --config FILE";

#[test]
fn a_found_policy_that_is_a_link_is_refused_not_read() {
    for target in ["/proc/self/environ", "../env.txt"] {
        let d = tree();
        symlink(target, d.path().join("ra/replay-audit.toml")).unwrap();
        // Beside a folder and beside a file; every command that reads it.
        for args in [
            &["check", "ra/"][..],
            &["check", "ra/m.yaml"],
            &["report", "ra"],
            &["graph", "ra/m.yaml"],
            &["what-if", "ra", "--set", "payout-idempotency.retention=16h"],
        ] {
            refused(
                d.path(),
                args,
                &format!(
                    "error: `ra/replay-audit.toml` is a symbolic link; files replay-audit finds by itself are never read through one
{LINK_HELP}

error: could not use `ra/replay-audit.toml`: 1 error
"
                ),
            );
        }
    }
}

fn not_text(name: &str, at: &str, help: &str, then: &str) -> String {
    format!(
        "error: `{name}` is not a text file: control character U+0000 at {at}\nhelp: {help}\n\nerror: {then}\n"
    )
}

const TEXT_HELP: &str = "give a text file; nothing of a file holding control characters is shown";

#[test]
fn given_files_holding_control_characters_show_nothing() {
    let d = tree();
    let at = "line 1, column 15 (byte 14)";
    refused(
        d.path(),
        &["check", "ra", "--config", "env.txt"],
        &not_text("env.txt", at, TEXT_HELP, "could not use `env.txt`: 1 error"),
    );
    refused(
        d.path(),
        &["check", "ra", "--baseline", "env.txt"],
        &not_text(
            "env.txt",
            at,
            "create it with `replay-audit check --write-baseline FILE ...`",
            "could not use `env.txt`: 1 error",
        ),
    );
    refused(
        d.path(),
        &["check", "ra", "--overrides", "env.txt"],
        &not_text(
            "env.txt",
            at,
            "give a YAML file of `TARGET: VALUE` lines, as the shell's `save` writes",
            "could not analyse the manifest: 1 error",
        ),
    );
    refused(
        d.path(),
        &["check", "env.txt"],
        &not_text(
            "env.txt",
            at,
            TEXT_HELP,
            "could not analyse the manifest: 1 error",
        ),
    );
    // A link named on the command line is followed within the tree, and
    // what it reaches still shows nothing; a file named outside the tree
    // is read wherever it is, and shows nothing either.
    symlink("env.txt", d.path().join("policy.toml")).unwrap();
    refused(
        d.path(),
        &["check", "ra", "--config", "policy.toml"],
        &not_text(
            "policy.toml",
            at,
            TEXT_HELP,
            "could not use `policy.toml`: 1 error",
        ),
    );
    refused(
        d.path(),
        &["check", "ra", "--config", "/proc/self/environ"],
        &not_text(
            "/proc/self/environ",
            "line 1, column 35 (byte 34)",
            TEXT_HELP,
            "could not use `/proc/self/environ`: 1 error",
        ),
    );
}

/// The error for a named path that a link takes out of `tree`.
fn leads_out(name: &str, tree: &Path, what: &str, then: &str) -> String {
    format!(
        "error: `{name}` leads out of {what} (`{}`) through a symbolic link; such a link is not followed
help: name what the link points to by its own path, or put it in the link's place

error: {then}
",
        tree.display()
    )
}

/// CI names files by a pattern (`check ra/*.yaml`): a link the pull
/// request put into the tree that points outside it is not followed,
/// whatever reads it, so no line of what it points at reaches the log.
#[test]
fn a_named_link_out_of_the_tree_is_refused_not_read() {
    let d = tree();
    let secrets = tempfile::tempdir().unwrap();
    let secret = secrets.path().join("credentials");
    std::fs::write(&secret, format!("https://ci:{CANARY}@example.com\n")).unwrap();
    std::fs::create_dir(secrets.path().join("folder")).unwrap();
    std::fs::write(secrets.path().join("folder/a.yaml"), format!("{CANARY}\n")).unwrap();
    symlink(&secret, d.path().join("ra/leak.yaml")).unwrap();
    symlink(secrets.path().join("folder"), d.path().join("ra/more")).unwrap();
    let root = std::fs::canonicalize(d.path()).unwrap();
    let folder = "the current folder";
    let analyse = "could not analyse the manifest: 1 error";
    for (args, name, then) in [
        (
            &["check", "ra/leak.yaml", "ra/m.yaml"][..],
            "ra/leak.yaml",
            analyse,
        ),
        (&["check", "ra/more"], "ra/more", analyse),
        (&["report", "ra/leak.yaml"], "ra/leak.yaml", analyse),
        (
            &["check", "ra", "--config", "ra/leak.yaml"],
            "ra/leak.yaml",
            "could not use `ra/leak.yaml`: 1 error",
        ),
        (
            &["check", "ra", "--baseline", "ra/leak.yaml"],
            "ra/leak.yaml",
            "could not use `ra/leak.yaml`: 1 error",
        ),
    ] {
        refused(d.path(), args, &leads_out(name, &root, folder, then));
    }
    let absolute = root.join("ra/leak.yaml").display().to_string();
    refused(
        d.path(),
        &["graph", &absolute],
        &leads_out(&absolute, &root, folder, analyse),
    );
    for args in [
        &["check", "ra", "--overrides", "ra/leak.yaml"][..],
        &["import", "cloudformation", "ra/leak.yaml"],
    ] {
        refused(
            d.path(),
            args,
            &leads_out("ra/leak.yaml", &root, folder, analyse),
        );
    }
    // `--each` reports a folder it cannot use on one line.
    refused(
        d.path(),
        &["check", "--each", "ra/more"],
        &format!(
            "error: `ra/more` leads out of the current folder (`{}`) through a symbolic link; such a link is not followed; help: name what the link points to by its own path, or put it in the link's place\n",
            root.display()
        ),
    );
    // In a repository the tree is the repository, from any folder in it:
    // a link to another of its folders is followed.
    std::fs::create_dir(d.path().join(".git")).unwrap();
    std::fs::create_dir(d.path().join("ci")).unwrap();
    symlink("../ra/m.yaml", d.path().join("ci/m.yaml")).unwrap();
    let (code, _, err) = run(
        &d.path().join("ci"),
        &["check", "m.yaml", "--format", "json"],
    );
    assert_eq!(code, Some(1), "{err}");
    refused(
        &d.path().join("ci"),
        &["check", "../ra/leak.yaml"],
        &leads_out("../ra/leak.yaml", &root, "the repository", analyse),
    );
    // Named outside the tree, a link is the user's own: it is followed.
    symlink(d.path().join("ra/m.yaml"), secrets.path().join("m.yaml")).unwrap();
    let outside = secrets.path().join("m.yaml").display().to_string();
    let (code, _, err) = run(d.path(), &["check", &outside, "--format", "json"]);
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn a_file_that_stats_as_empty_is_read_bounded() {
    // /proc files stat as 0 bytes: the limit holds on what is read.
    refused(
        Path::new("/"),
        &["--max-file-size", "10", "check", "/proc/self/environ"],
        "error: `/proc/self/environ` holds more than the limit of 10 bytes
help: raise the limit with --max-file-size BYTES if the file is genuine

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn text_that_is_not_a_policy_shows_one_short_line() {
    let d = tree();
    let long = format!("API_KEY {}{CANARY}\n", "x".repeat(100));
    std::fs::write(d.path().join("notes.txt"), format!("# notes\n{long}")).unwrap();
    let (code, _, err) = run(d.path(), &["check", "ra", "--config", "notes.txt"]);
    assert_eq!(code, Some(2));
    // The line is cut at 80 characters; the canary lies beyond.
    let shown: String = long.chars().take(80).collect();
    let carets = "^".repeat(72);
    assert_eq!(
        err,
        format!(
            "error: key with no value, expected `=`
 --> notes.txt:2:9
  |
2 | {shown}
  |         {carets}

error: could not use `notes.txt`: 1 error
"
        )
    );
    for file in ["b.json", "o.yaml"] {
        std::fs::write(d.path().join(file), format!("{long}{long}")).unwrap();
    }
    for args in [
        &["check", "ra", "--baseline", "b.json"][..],
        &["check", "ra", "--overrides", "o.yaml"],
    ] {
        let (code, _, err) = run(d.path(), args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(!err.contains(CANARY), "{args:?}: {err}");
        // The one line of the file shown: `1 | ` and 80 characters.
        let shown: Vec<&str> = err.lines().filter(|l| l.starts_with("1 | ")).collect();
        assert_eq!(shown, [format!("1 | {}", &long[..80])], "{err}");
    }
}

const INPUT_HELP: &str = "help: give another output path";

fn is_input(path: &str) -> String {
    format!(
        "error: `{path}` is an input of this run (a manifest, overrides, baseline or policy file); writing there would replace it\n{INPUT_HELP}\n"
    )
}

/// Every file of `dir` and its content, to show nothing changed.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
            } else if m.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.push((
                    p.display().to_string(),
                    t.display().to_string().into_bytes(),
                ));
            } else {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_writer_replaces_an_input() {
    let d = tree();
    let p = d.path();
    std::fs::write(p.join("ra/replay-audit.toml"), "fail_on = \"error\"\n").unwrap();
    std::fs::create_dir(p.join("ra/more")).unwrap();
    std::fs::write(p.join("ra/more/extra.yaml"), "version: 1\ncomponents: {}\n").unwrap();
    std::fs::write(p.join("o.yaml"), "payout-idempotency.retention: 16h\n").unwrap();
    // A hard link and a resolving path count as the file itself.
    std::fs::hard_link(p.join("ra/m.yaml"), p.join("hard.md")).unwrap();
    let before = snapshot(p);
    for (args, target) in [
        (&["report", "ra/m.yaml", "-o", "ra/m.yaml"][..], "ra/m.yaml"),
        (&["graph", "ra/m.yaml", "-o", "ra/m.yaml"], "ra/m.yaml"),
        (&["graph", "ra/m.yaml", "-o", "hard.md"], "hard.md"),
        (
            &["report", "ra", "-o", "ra/more/../m.yaml"],
            "ra/more/../m.yaml",
        ),
        (
            &["report", "ra", "-o", "ra/more/extra.yaml"],
            "ra/more/extra.yaml",
        ),
        (
            &["check", "ra/m.yaml", "--write-baseline", "ra/m.yaml"],
            "ra/m.yaml",
        ),
        (
            &["check", "ra", "--write-baseline", "ra/replay-audit.toml"],
            "ra/replay-audit.toml",
        ),
        (
            &["report", "ra", "-o", "ra/replay-audit.toml"],
            "ra/replay-audit.toml",
        ),
        (
            &[
                "check",
                "ra",
                "--overrides",
                "o.yaml",
                "--write-baseline",
                "o.yaml",
            ],
            "o.yaml",
        ),
    ] {
        let (code, out, err) = run(p, args);
        assert_eq!(err, is_input(target), "{args:?}");
        assert_eq!(code, Some(2), "{args:?}");
        if args[0] != "check" {
            assert_eq!(out, "", "{args:?}");
        }
        assert_eq!(snapshot(p), before, "{args:?} changed a file");
    }
}

#[test]
fn no_writer_writes_through_a_link() {
    let d = tree();
    let p = d.path();
    symlink("ra/m.yaml", p.join("out.html")).unwrap();
    symlink("nowhere.md", p.join("dangling.md")).unwrap();
    let before = snapshot(p);
    for (args, target) in [
        (
            &["report", "ra", "--format", "html", "-o", "out.html"][..],
            "out.html",
        ),
        (&["graph", "ra", "-o", "dangling.md"], "dangling.md"),
        (
            &["check", "ra", "--write-baseline", "dangling.md"],
            "dangling.md",
        ),
        (&["init", "--output", "dangling.md"], "dangling.md"),
    ] {
        let (code, _, err) = run(p, args);
        assert_eq!(
            err,
            format!(
                "error: `{target}` is a symbolic link; replay-audit does not write through links\nhelp: remove the link, or give the path of a regular file\n"
            ),
            "{args:?}"
        );
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(snapshot(p), before, "{args:?} changed a file");
    }
}

fn shell(dir: &Path, input: &str) -> (Option<i32>, String, String) {
    let out = cmd(dir)
        .args(["shell", "ra/m.yaml"])
        .env("XDG_STATE_HOME", "/nonexistent/replay-audit-test")
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn shell_save_keeps_inputs_and_existing_files_unless_forced() {
    let d = tree();
    let p = d.path();
    std::fs::write(p.join("kept.yaml"), "old\n").unwrap();
    let manifest = std::fs::read(p.join("ra/m.yaml")).unwrap();
    let (code, out, err) = shell(
        p,
        "set payout-idempotency.retention=16h\nsave ra/m.yaml\nsave kept.yaml\nchanges\nsave --force kept.yaml\n",
    );
    assert_eq!(
        err,
        format!(
            "{}error: `kept.yaml` already exists\nhelp: give another file name, or replace it with `save --force kept.yaml`\n",
            is_input("ra/m.yaml")
        )
    );
    // The session goes on after each refusal; errors make the exit code 2.
    assert!(
        out.ends_with(
            "  payout-idempotency.retention: (not set: 1h, powertools-idempotency default, F040) → 16h\nsaved 1 change(s) to kept.yaml; use it with `--overrides kept.yaml`\n"
        ),
        "{out}"
    );
    assert_eq!(code, Some(2));
    assert_eq!(std::fs::read(p.join("ra/m.yaml")).unwrap(), manifest);
    let saved = std::fs::read_to_string(p.join("kept.yaml")).unwrap();
    assert!(
        saved.ends_with("payout-idempotency.retention: 16h\n"),
        "{saved}"
    );
}

#[test]
fn a_write_that_fails_part_way_leaves_the_old_file() {
    let d = tree();
    let p = d.path();
    std::fs::write(p.join("out.md"), "the good report\n").unwrap();
    let bin = assert_cmd::cargo::cargo_bin("replay-audit");
    // At most 1 block may be written (the report is about 11 KiB); SIGXFSZ
    // ignored, so the write fails with EFBIG instead of killing the process.
    let out = std::process::Command::new("sh")
        .current_dir(p)
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 1; exec \"$0\" report ra/m.yaml -o out.md",
        ])
        .arg(&bin)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write `out.md`: File too large (os error 27)\nhelp: check that the folder exists and is writable and that the disk has room; nothing at that path was changed\n"
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(p.join("out.md")).unwrap(),
        "the good report\n"
    );
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["env.txt", "out.md", "ra"]);
    // Without the limit the same command replaces the file whole.
    let (code, _, err) = run(p, &["report", "ra/m.yaml", "-o", "out.md"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let report = std::fs::read_to_string(p.join("out.md")).unwrap();
    assert!(report.len() > 1024 && report.starts_with("# "), "{report}");
}

#[test]
fn a_link_to_a_stream_is_written_in_place() {
    // `-o /dev/stdout` with standard output a pipe: /dev/stdout is a link
    // that leads to the pipe, not to a file that could be replaced.
    let d = tree();
    let (code, out, err) = run(d.path(), &["graph", "ra/m.yaml", "-o", "/dev/stdout"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(out.starts_with("digraph "), "{out}");
}

/// The refusal of an output path that leads through `link`, a symbolic
/// link to a folder in the repository `root`.
fn through_a_link(target: &str, link: &str, root: &Path) -> String {
    format!(
        "error: `{target}` leads through `{link}`, a symbolic link in the repository (`{}`); replay-audit does not write through links\nhelp: remove the link, or give a path without links in it\n",
        root.display()
    )
}

/// A pull request makes `reports` a link to a folder outside the
/// repository: no writer writes through it, whatever file it writes.
#[test]
fn no_writer_writes_through_a_linked_folder() {
    let d = tree();
    let p = d.path();
    std::fs::create_dir(p.join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), p.join("reports")).unwrap();
    let root = std::fs::canonicalize(p).unwrap();
    let before = snapshot(p);
    for (args, target) in [
        (
            &["report", "ra", "--format", "html", "-o", "reports/x.html"][..],
            "reports/x.html",
        ),
        (
            &["report", "ra", "-o", "reports/../x.md"],
            "reports/../x.md",
        ),
        (
            &["graph", "ra/m.yaml", "-o", "reports/g.dot"],
            "reports/g.dot",
        ),
        (
            &["check", "ra", "--write-baseline", "reports/b.json"],
            "reports/b.json",
        ),
        (
            &["init", "--output", "reports/replay-audit.toml"],
            "reports/replay-audit.toml",
        ),
        (&["man", "--out-dir", "reports"], "reports/replay-audit.1"),
    ] {
        let (code, _, err) = run(p, args);
        assert_eq!(err, through_a_link(target, "reports", &root), "{args:?}");
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(snapshot(p), before, "{args:?} changed a file");
        assert_eq!(snapshot(outside.path()), [], "{args:?} wrote outside");
    }
    let (code, _, err) = shell(
        p,
        "set payout-idempotency.retention=16h\nsave reports/o.yaml\n",
    );
    assert_eq!(err, through_a_link("reports/o.yaml", "reports", &root));
    assert_eq!(code, Some(2));
    assert_eq!(snapshot(outside.path()), []);
    // A path the user names outside the repository is written.
    let own = outside.path().join("own.md").display().to_string();
    let (code, _, err) = run(p, &["report", "ra/m.yaml", "-o", &own]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(outside.path().join("own.md").is_file());
}

/// The refusal of `name`, which lies in (`how`) or leads into `.git`.
fn in_git(name: &str, how: &str, help: &str, then: &str) -> String {
    format!(
        "error: `{name}` {how} a `.git` folder; nothing under `.git` is read\nhelp: {help}\n\nerror: {then}\n"
    )
}

const GIT_HELP: &str = "give a file of the work tree; `.git` holds the repository's own data";

/// `.git/config` may hold a token: no name or link makes it an input, and
/// no byte of it is shown.
#[test]
fn nothing_under_git_is_read() {
    let d = tree();
    let p = d.path();
    std::fs::create_dir(p.join(".git")).unwrap();
    std::fs::write(
        p.join(".git/config"),
        format!("[remote \"origin\"]\nurl = https://ci:{CANARY}@example.com\n"),
    )
    .unwrap();
    symlink(".git/config", p.join("replay-audit.toml")).unwrap();
    let linked = "leads through a symbolic link into";
    refused(
        p,
        &["check", "ra", "--config", "replay-audit.toml"],
        &in_git(
            "replay-audit.toml",
            linked,
            GIT_HELP,
            "could not use `replay-audit.toml`: 1 error",
        ),
    );
    refused(
        p,
        &["check", "ra", "--config", ".git/config"],
        &in_git(
            ".git/config",
            "lies in",
            GIT_HELP,
            "could not use `.git/config`: 1 error",
        ),
    );
    refused(
        p,
        &["check", ".git/config"],
        &in_git(
            ".git/config",
            "lies in",
            GIT_HELP,
            "could not analyse the manifest: 1 error",
        ),
    );
    // Found beside the manifests, it is refused too.
    symlink("../.git/config", p.join("ra/replay-audit.toml")).unwrap();
    refused(
        p,
        &["check", "ra"],
        &in_git(
            "ra/replay-audit.toml",
            linked,
            &LINK_HELP["help: ".len()..],
            "could not use `ra/replay-audit.toml`: 1 error",
        ),
    );
    // As a baseline, with no policy link in the way: the same refusal,
    // not the help for a missing baseline.
    std::fs::remove_file(p.join("replay-audit.toml")).unwrap();
    std::fs::remove_file(p.join("ra/replay-audit.toml")).unwrap();
    refused(
        p,
        &["check", "ra", "--baseline", ".git/config"],
        &in_git(
            ".git/config",
            "lies in",
            GIT_HELP,
            "could not use `.git/config`: 1 error",
        ),
    );
}

/// A file named as the policy by mistake: however many errors it holds,
/// one line of it is shown, and only the first error quotes it.
#[test]
fn a_policy_with_many_errors_quotes_one_line() {
    let d = tree();
    let p = d.path();
    std::fs::write(p.join("n.txt"), "API_KEY one\nTOKEN hunter2\n").unwrap();
    refused(
        p,
        &["check", "ra", "--config", "n.txt"],
        "error: key with no value, expected `=`
 --> n.txt:1:9
  |
1 | API_KEY one
  |         ^^^

error: key with no value, expected `=` (at n.txt:2:7)

error: could not use `n.txt`: 2 errors
",
    );
    // A `.env` file is valid TOML: each key is an unknown field.
    std::fs::write(p.join(".env"), "API_KEY = \"one\"\nTOKEN = \"hunter2\"\n").unwrap();
    let keys = "help: the keys here are: fail_on, require_expiry, severity, margin, waiver";
    refused(
        p,
        &["check", "ra", "--config", ".env"],
        &format!(
            "error: unknown field `API_KEY`
 --> .env:1:1
  |
1 | API_KEY = \"one\"
  | ^^^^^^^ not one of the keys here
  |
{keys}

error: unknown field `TOKEN` (at .env:2:1)
{keys}

error: could not use `.env`: 2 errors
"
        ),
    );
}

/// The current folder reached through a symbolic link is judged where it
/// is: a link out of the tree named from there is refused all the same.
#[test]
fn a_current_folder_reached_through_a_link_is_resolved() {
    let d = tree();
    let secrets = tempfile::tempdir().unwrap();
    std::fs::write(secrets.path().join("credentials"), format!("{CANARY}\n")).unwrap();
    symlink(
        secrets.path().join("credentials"),
        d.path().join("ra/leak.yaml"),
    )
    .unwrap();
    let via = tempfile::tempdir().unwrap();
    symlink(d.path(), via.path().join("repo")).unwrap();
    let root = std::fs::canonicalize(d.path()).unwrap();
    refused(
        &via.path().join("repo"),
        &["check", "ra/leak.yaml"],
        &leads_out(
            "ra/leak.yaml",
            &root,
            "the current folder",
            "could not analyse the manifest: 1 error",
        ),
    );
}

#[test]
fn no_line_of_a_file_read_through_a_link_is_quoted() {
    // A link within the repository is followed, but what it leads to may
    // be a file its author could not otherwise show: the error names the
    // place (file:line:col) and quotes no line of it. The same file named
    // by its own path shows its line.
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    std::fs::create_dir(d.path().join("d")).unwrap();
    std::fs::write(
        d.path().join("d/real.yaml"),
        "version: 1\ncomponents:\n  svc:\n    kind: service\n    sends_to: line-of-the-target # hunter2\n",
    )
    .unwrap();
    symlink("d/real.yaml", d.path().join("link.yaml")).unwrap();
    symlink("d", d.path().join("dl")).unwrap();
    for name in ["link.yaml", "dl/real.yaml"] {
        let (code, out, err) = run(d.path(), &["check", name, "--color", "never"]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert_eq!(out, "", "{name}");
        assert!(
            // The line shown is blank: the gutter's space and 15 more.
            err.contains(&format!(
                " --> {name}:5:15\n  |\n5 |{}\n  |               ^ unknown id\n",
                " ".repeat(16)
            )),
            "{name}: {err}"
        );
        assert!(!err.contains("hunter2"), "{name}: {err}");
    }
    let (code, _, err) = run(d.path(), &["check", "d/real.yaml", "--color", "never"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("5 |     sends_to: line-of-the-target # hunter2\n"),
        "{err}"
    );
}
