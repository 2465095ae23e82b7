//! `report -o FILE` writes the page as it is made into a temporary file
//! beside FILE: the file holds exactly what standard output shows, and a
//! write that cannot be made leaves nothing behind.

use assert_cmd::Command;

const MANIFEST: &str = "fixtures/incident-dlq-redrive.yaml";

fn report(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(MANIFEST);
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(dir)
        .env("REPLAY_AUDIT_TODAY", "2026-12-01")
        .env("NO_COLOR", "1")
        .arg("report")
        .arg(manifest)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

#[test]
fn the_file_is_what_standard_output_shows() {
    let d = tempfile::tempdir().unwrap();
    for (format, file) in [("html", "out.html"), ("markdown", "out.md")] {
        let (code, printed, err) = report(d.path(), &["--format", format]);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{format}");
        let (code, quiet, err) = report(d.path(), &["--format", format, "-o", file]);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{format}");
        assert!(quiet.is_empty(), "{format}");
        assert_eq!(
            std::fs::read(d.path().join(file)).unwrap(),
            printed,
            "{format}"
        );
    }
    assert!(
        String::from_utf8_lossy(&std::fs::read(d.path().join("out.html")).unwrap())
            .ends_with("</section>\n</body>\n</html>\n")
    );
    assert_eq!(names(d.path()), ["out.html", "out.md"]);
}

#[test]
fn a_missing_folder_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    for format in ["html", "markdown"] {
        let (code, out, err) = report(d.path(), &["--format", format, "-o", "no/such/out.html"]);
        assert_eq!(
            err,
            "error: cannot write `no/such/out.html`: No such file or directory (os error 2)\nhelp: check that the folder exists and is writable and that the disk has room; nothing at that path was changed\n",
            "{format}"
        );
        assert_eq!(code, Some(2), "{format}");
        assert!(out.is_empty(), "{format}");
        assert!(names(d.path()).is_empty(), "{format}");
    }
}
