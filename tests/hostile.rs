//! Hostile input: every file an attacker (or an accident) can hand the tool
//! in CI is refused with its exact error and exit code 2, or analysed, in
//! bounded time and memory. No timing assertions: each case just has to
//! finish. The README's "Limits on input" lists the limits and their flags.

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

/// The table of a clean run without a policy file.
const NO_FINDINGS: &str = "No findings.\npolicy: no replay-audit.toml found; the defaults apply\n";

fn cmd(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("replay-audit").unwrap();
    c.current_dir(dir).env_remove("NO_COLOR");
    c
}

fn dir_with(files: &[(&str, &[u8])]) -> TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let p = d.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(p, bytes).unwrap();
    }
    d
}

/// `check ARGS` in `dir` fails with exit code 2, nothing on stdout and
/// exactly `stderr`.
fn refused(dir: &Path, args: &[&str], stderr: &str) {
    let out = cmd(dir).arg("check").args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err, stderr, "stderr of check {args:?}");
    assert_eq!(out.status.code(), Some(2), "exit code of check {args:?}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The smallest manifest with no finding (one without an intent is RH044).
const SMALL: &str = "version: 1\nintents:\n  i: { origin: a, effect: b, key: { fields: [id] }, tested: [timeout-before-effect, timeout-after-effect, lost-ack, concurrent-retry, expired-key] }\ncomponents:\n  a: { kind: service, effects: [b] }\n  b: { kind: external }\n";

#[test]
fn alias_bomb_stops_at_the_budget() {
    // 9^9 strings (387 million) from a 300-byte file.
    let mut text =
        String::from("version: 1\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n");
    for i in 0..8u8 {
        let (n, p) = ((b'b' + i) as char, (b'a' + i) as char);
        text.push_str(&format!(
            "{n}: &{n} [{}]\n",
            vec![format!("*{p}"); 9].join(",")
        ));
    }
    let d = dir_with(&[("bomb.yaml", text.as_bytes())]);
    refused(
        d.path(),
        &["bomb.yaml"],
        "error: invalid YAML: the document has more than 65871 nodes (65872 reached), the limit for a file of 335 bytes (an alias bomb?)
 --> bomb.yaml:6:29
  |
6 | e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  |                             ^^
  |
help: the limit is 65536 plus one node per byte of the file; write the values out instead of nesting aliases of aliases

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn deep_flow_nesting_is_refused() {
    let text = format!(
        "version: 1\nx: {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let d = dir_with(&[("deep.yaml", text.as_bytes())]);
    refused(
        d.path(),
        &["deep.yaml"],
        &format!(
            "error: invalid YAML: the document is nested more than 48 levels deep
 --> deep.yaml:2:201
  |
2 | ...{}
  |                                                                    ^
  |
help: a manifest needs fewer than 10 levels of nesting; the limit is fixed

error: could not analyse the manifest: 1 error
",
            "[".repeat(64)
        ),
    );
}

#[test]
fn deep_block_nesting_is_refused() {
    let text = format!("version: 1\nx:\n  {}x\n", "- ".repeat(200_000));
    let d = dir_with(&[("deep.yaml", text.as_bytes())]);
    let out = cmd(d.path()).args(["check", "deep.yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(
            "error: invalid YAML: the document is nested more than 48 levels deep (49 reached)\n --> deep.yaml:3:97\n"
        ),
        "{err}"
    );
    assert!(
        err.ends_with(
            "help: a manifest needs fewer than 10 levels of nesting; the limit is fixed\n\nerror: could not analyse the manifest: 1 error\n"
        ),
        "{err}"
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_reading() {
    let d = tempfile::tempdir().unwrap();
    // Sparse: 100 MB long, nothing written (and nothing read).
    let f = std::fs::File::create(d.path().join("big.yaml")).unwrap();
    f.set_len(100 * 1024 * 1024).unwrap();
    refused(
        d.path(),
        &["big.yaml"],
        "error: `big.yaml` is 104857600 bytes, more than the limit of 67108864 bytes
help: raise the limit with --max-file-size BYTES if the file is genuine

error: could not analyse the manifest: 1 error
",
    );
    // Raised, the file is read and fails cleanly at its first byte (NUL):
    // not a text file, so nothing of it is shown (tests/hostile_files.rs).
    let out = cmd(d.path())
        .args(["--max-file-size", "200000000", "check", "big.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: `big.yaml` is not a text file: control character U+0000 at line 1, column 1 (byte 0)
help: give a text file; nothing of a file holding control characters is shown

error: could not analyse the manifest: 1 error
"
    );
}

#[test]
fn binary_data_is_not_utf8() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
    let d = dir_with(&[("blob.yaml", &bytes)]);
    refused(
        d.path(),
        &["blob.yaml"],
        "error: `blob.yaml` is not UTF-8 text: invalid byte at line 2, column 118 (byte 128)
help: save the manifest as UTF-8

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn latin1_text_names_the_first_bad_byte() {
    let d = dir_with(&[("latin1.yaml", b"version: 1\nname: caf\xe9\n")]);
    refused(
        d.path(),
        &["latin1.yaml"],
        "error: `latin1.yaml` is not UTF-8 text: invalid byte at line 2, column 10 (byte 20)
help: save the manifest as UTF-8

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn an_empty_file_is_named() {
    let d = dir_with(&[("empty.yaml", b"")]);
    refused(
        d.path(),
        &["empty.yaml"],
        "error: the manifest is empty: `version` is missing
 --> empty.yaml:1:1
  |
1 |
  | ^
  |
help: start the file with `version: 1`

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn several_documents_in_one_file_are_refused() {
    let d = dir_with(&[("stream.yaml", b"version: 1\n---\nversion: 1\n---\n")]);
    refused(
        d.path(),
        &["stream.yaml"],
        "error: invalid YAML: the file holds several YAML documents (`---`)
 --> stream.yaml:2:1
  |
2 | ---
  | ^^^
  |
help: put each document in a file of its own; several files form one architecture

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn yaml_tags_are_refused_not_dropped() {
    // Without the refusal `!Ref x` read as the string `x`.
    let d = dir_with(&[(
        "tag.yaml",
        b"version: 1\nname: !Ref x\ncomponents:\n  a: { kind: service }\n",
    )]);
    refused(
        d.path(),
        &["tag.yaml"],
        "error: invalid YAML: the tag `!Ref` is not supported in a manifest
 --> tag.yaml:2:12
  |
2 | name: !Ref x
  |            ^
  |
help: replay-audit does not evaluate YAML tags: write the value itself (a CloudFormation template is read by `replay-audit import cloudformation`)

error: could not analyse the manifest: 1 error
",
    );
    // Standard tags keep their meaning.
    let d = dir_with(&[(
        "std.yaml",
        SMALL
            .replace("version: 1", "version: !!int 1\nname: !!str 5")
            .replace("kind: service", "kind: !!str service")
            .as_bytes(),
    )]);
    cmd(d.path())
        .args(["check", "std.yaml"])
        .assert()
        .code(0)
        .stdout(NO_FINDINGS);
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_in_a_folder_is_not_followed() {
    let d = dir_with(&[("arch/a.yaml", SMALL.as_bytes())]);
    std::os::unix::fs::symlink("..", d.path().join("arch/up")).unwrap();
    std::os::unix::fs::symlink("loop", d.path().join("arch/loop")).unwrap();
    std::os::unix::fs::symlink(".", d.path().join("arch/self.yaml")).unwrap();
    cmd(d.path())
        .args(["check", "arch"])
        .assert()
        .code(0)
        .stdout(NO_FINDINGS)
        .stderr("");
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir_with(&[("secret.yaml", SMALL.as_bytes())]);
    let p = d.path().join("secret.yaml");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&p).is_ok() {
        // Root (as in CI containers) reads a mode-000 file; the FIFO test
        // below covers a file that cannot be read there.
        eprintln!("skipped: running as root, a mode-000 file is still readable");
        return;
    }
    refused(
        d.path(),
        &["secret.yaml"],
        "error: cannot read `secret.yaml`: permission denied
help: check the path; give manifest files or folders holding *.yaml files

error: could not analyse the manifest: 1 error
",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_instead_of_blocking() {
    // Opening a FIFO with no writer blocks forever; it is refused first,
    // given by name or found in a folder.
    let d = dir_with(&[("arch/a.yaml", SMALL.as_bytes())]);
    let fifo = d.path().join("arch/pipe.yaml");
    let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !ok.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let expected = "error: `arch/pipe.yaml` is not a regular file
help: give manifest files or folders; pipes and devices are not read

error: could not analyse the manifest: 1 error
";
    refused(d.path(), &["arch/pipe.yaml"], expected);
    refused(d.path(), &["arch"], expected);
}

#[test]
fn a_folder_named_like_a_manifest_is_walked() {
    let d = dir_with(&[("x.yaml/inner.yaml", SMALL.as_bytes())]);
    cmd(d.path())
        .args(["check", "x.yaml"])
        .assert()
        .code(0)
        .stdout(NO_FINDINGS);
    let d = dir_with(&[("empty.yaml/readme.txt", b"not a manifest")]);
    refused(
        d.path(),
        &["empty.yaml"],
        "error: no manifest files found in `empty.yaml`
help: a folder is read for manifests (*.yaml, *.yml: a top-level `version` with `components`, `intents` or `regions`) and Terraform (*.tf, *.tf.json, terraform.tfvars, *.auto.tfvars) below it, hidden folders left out; name any other file (a CloudFormation *.json template, an AsyncAPI document) on the command line

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn ten_thousand_files_form_one_architecture() {
    let d = tempfile::tempdir().unwrap();
    let arch = d.path().join("arch");
    std::fs::create_dir(&arch).unwrap();
    for i in 0..10_000 {
        let text = if i == 0 {
            "version: 1\nintents:\n  pay:\n    origin: c1\n    effect: c9999\n    key: { fields: [id] }\ncomponents:\n  c0: { kind: service }\n".to_string()
        } else if i == 1 {
            "version: 1\ncomponents:\n  c1: { kind: service, calls: [{ to: c9999, timeout: 10s, passes_key: true }] }\n".to_string()
        } else if i == 9999 {
            "version: 1\ncomponents:\n  c9999: { kind: external, accepts_key: true, key_window: unbounded }\n".to_string()
        } else {
            format!("version: 1\ncomponents:\n  c{i}: {{ kind: queue, retention: 4d }}\n")
        };
        std::fs::write(arch.join(format!("f{i:05}.yaml")), text).unwrap();
    }
    let out = cmd(d.path())
        .args(["horizon", "arch", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["horizons"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["intent"], "pay");
    assert_eq!(rows[0]["node"], "c9999");
}

#[test]
fn a_confusable_id_is_refused() {
    // The second letter is CYRILLIC SMALL LETTER A (U+0430).
    let d = dir_with(&[(
        "ids.yaml",
        "version: 1\ncomponents:\n  p\u{430}yout: { kind: service }\n".as_bytes(),
    )]);
    refused(
        d.path(),
        &["ids.yaml"],
        "error: `p\u{430}yout` is not a valid component id
 --> ids.yaml:3:3
  |
3 |   p\u{430}yout: { kind: service }
  |   ^^^^^^
  |
help: ids are lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit

error: could not analyse the manifest: 1 error
",
    );
}

const OVERFLOW: &str = "version: 1
intents:
  pay:
    origin: svc
    effect: bank
    key: { fields: [id] }
components:
  svc:
    kind: service
    sends_to: q
  q:
    kind: queue
    retention: RETENTION
    delivers_to: worker
    dead_letter: { to: dlq, after_receives: 3 }
  dlq:
    kind: queue
    retention: RETENTION
    redrive: { to: q, mode: manual, max_times: 3 }
  worker:
    kind: function
    dedup: { store: keys, claim: conditional-write }
    effects: [bank]
  keys:
    kind: store
    retention: RETENTION
  bank:
    kind: external
    accepts_key: false
";

#[test]
fn durations_that_overflow_when_summed_saturate_to_unbounded() {
    // i64::MAX seconds, and a humantime spelling of about as much: four
    // retentions and three redrives sum far past u64::MAX.
    for retention in ["9223372036854775807", "292000000000y"] {
        let d = dir_with(&[(
            "o.yaml",
            OVERFLOW.replace("RETENTION", retention).as_bytes(),
        )]);
        let out = cmd(d.path())
            .args(["check", "o.yaml", "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let f = &v["findings"][0];
        assert_eq!(f["code"], "RH003", "{retention}: {v}");
        assert_eq!(f["component"], "bank");
        assert_eq!(f["horizon_seconds"], serde_json::Value::Null);
        let h = cmd(d.path()).args(["horizon", "o.yaml"]).output().unwrap();
        let text = String::from_utf8(h.stdout).unwrap();
        assert!(
            text.starts_with("intent pay\n  bank (effect): horizon unbounded, window none"),
            "{text}"
        );
        assert!(text.contains("       = unbounded  total\n"), "{text}");
    }
    // Past i64 the YAML integer itself is refused.
    let d = dir_with(&[(
        "o.yaml",
        OVERFLOW
            .replace("RETENTION", "18446744073709551615")
            .as_bytes(),
    )]);
    refused(
        d.path(),
        &["o.yaml"],
        "error: invalid YAML: integer too large
  --> o.yaml:13:16
   |
13 |     retention: 18446744073709551615
   |                ^^^^^^^^^^^^^^^^^^^^

error: could not analyse the manifest: 1 error
",
    );
}

#[test]
fn no_networking_crate_is_linked() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let names: Vec<&str> = lock
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .map(|l| l.trim_end_matches('"'))
        .collect();
    assert!(names.contains(&"serde-saphyr"), "Cargo.lock is read");
    for net in [
        "reqwest",
        "hyper",
        "ureq",
        "curl",
        "curl-sys",
        "isahc",
        "attohttpc",
        "surf",
        "h2",
        "rustls",
        "native-tls",
        "openssl",
        "tokio",
    ] {
        assert!(!names.contains(&net), "`{net}` is in Cargo.lock");
    }
}

#[cfg(unix)]
#[test]
fn check_reads_only_the_folder_given() {
    // A manifest outside the folder, reachable by a symbolic link (file and
    // folder), is not read: its error would fail the run.
    let d = dir_with(&[
        ("arch/a.yaml", SMALL.as_bytes()),
        ("outside/evil.yaml", b"version: 2\n"),
    ]);
    std::os::unix::fs::symlink("../outside/evil.yaml", d.path().join("arch/evil.yaml")).unwrap();
    std::os::unix::fs::symlink("../outside", d.path().join("arch/more")).unwrap();
    cmd(d.path())
        .args(["check", "arch"])
        .assert()
        .code(0)
        .stdout(NO_FINDINGS)
        .stderr("");
    // Named explicitly, the same file is read: the link is the user's choice.
    let out = cmd(d.path())
        .args(["check", "arch/evil.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn a_fifo_as_policy_baseline_or_overrides_file_is_refused() {
    let d = dir_with(&[("arch/a.yaml", SMALL.as_bytes())]);
    let fifo = d.path().join("pipe.toml");
    let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !ok.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    for flag in ["--config", "--baseline", "--overrides"] {
        let out = cmd(d.path())
            .args(["check", "arch/a.yaml", flag, "pipe.toml"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains("`pipe.toml` is not a regular file"),
            "{flag}: {err}"
        );
    }
}
