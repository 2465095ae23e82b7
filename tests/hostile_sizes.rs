//! Output commands on hostile sizes (issue #14 items 10-11): a ring of
//! thousands of redriven queues, a line of thousands of relayed queues, a
//! chain of 20,000 services, thousands of intents on one hub, a 1.6 MB
//! word. Each command must finish (no timing assertion) with output
//! linear in the input: long worst paths shown as their ends with the
//! exact count of the steps between, drawings above the budget showing
//! what findings point at and counting the rest, overlong words cut in the
//! table. benches/hostile_growth.sh times the same shapes.

#[path = "common/hostile_gen.rs"]
mod hostile_gen;

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

/// Bytes of output allowed per component (or per intent).
const PER_NODE: usize = 2048;

fn manifest(text: &str) -> TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.yaml"), text).unwrap();
    d
}

/// Runs `replay-audit ARGS m.yaml` in `dir`, checks the exit code and that
/// nothing went to stderr, and returns stdout.
fn run(dir: &Path, args: &[&str], code: i32) -> String {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(args)
        .arg("m.yaml")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    String::from_utf8(out.stdout).unwrap()
}

/// The row of q2500 on the line of 5,000 relayed queues: 5,001 steps, 16
/// shown; 2,500 deliveries of 4d (retention, no backlog bound) make
/// 10000d, and the 4,985 steps left out hold 2,492 of them (9968d).
const Q2500: &str =
    "  q2500 (transport): horizon 10000d, window 5m, latest copy to stop 10000d after its first sighting, minimum safe retention 11000d — EXPIRES FIRST
               +0s  svc → q0: sends_to: no delay
               +4d  q0 → r0: delivers_to: at-least-once delivery: retention 4d
               +0s  r0 → q1: sends_to: no delay
               +4d  q1 → r1: delivers_to: at-least-once delivery: retention 4d
               +0s  r1 → q2: sends_to: no delay
               +4d  q2 → r2: delivers_to: at-least-once delivery: retention 4d
               +0s  r2 → q3: sends_to: no delay
               +4d  q3 → r3: delivers_to: at-least-once delivery: retention 4d
            +9968d  … 4,985 more steps
               +4d  q2496 → r2496: delivers_to: at-least-once delivery: retention 4d
               +0s  r2496 → q2497: sends_to: no delay
               +4d  q2497 → r2497: delivers_to: at-least-once delivery: retention 4d
               +0s  r2497 → q2498: sends_to: no delay
               +4d  q2498 → r2498: delivers_to: at-least-once delivery: retention 4d
               +0s  r2498 → q2499: sends_to: no delay
               +4d  q2499 → r2499: delivers_to: at-least-once delivery: retention 4d
               +0s  r2499 → q2500: sends_to: no delay
          = 10000d  total
";

#[test]
fn horizon_on_a_line_of_5000_relayed_queues_shows_each_worst_path_by_its_ends() {
    let n = 5000;
    let d = manifest(&hostile_gen::relays(n));
    let text = run(d.path(), &["horizon"], 0);
    assert!(text.len() < PER_NODE * n, "{} bytes", text.len());
    assert!(
        text.contains(Q2500),
        "{}",
        text.get(..2000).unwrap_or(&text)
    );
    // One row per queue (transport), plus the store, the guard and the bank.
    assert_eq!(text.matches(" (transport): ").count(), n);
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" total")).count(),
        n + 3
    );
    // A row is at most 1 + 8 + 1 + 8 + 1 lines long.
    assert!(text.lines().count() <= (n + 3) * 19 + 1);
    // Paths of up to 20 steps are whole (q9 is 19 steps from svc).
    let q9 = text.split("  q9 (transport)").nth(1).unwrap();
    let q9 = &q9[..q9.find(" total\n").unwrap()];
    assert!(!q9.contains("more steps"), "{q9}");
    assert!(q9.contains("+4d  q8 → r8: delivers_to"), "{q9}");
}

#[test]
fn horizon_json_on_the_line_counts_and_sums_what_it_leaves_out() {
    let n = 5000;
    let d = manifest(&hostile_gen::relays(n));
    let text = run(d.path(), &["horizon", "--format", "json"], 0);
    assert!(text.len() < 2 * PER_NODE * n, "{} bytes", text.len());
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = v["horizons"].as_array().unwrap();
    assert_eq!(rows.len(), n + 3);
    let q = rows.iter().find(|r| r["node"] == "q2500").unwrap();
    assert_eq!(q["horizon_seconds"], 2500 * 345_600);
    assert_eq!(
        q["elided"],
        serde_json::json!({"after_step": 8, "steps": 4985, "adds_seconds": 2492 * 345_600})
    );
    assert_eq!(q["steps"].as_array().unwrap().len(), 16);
    assert_eq!(q["steps"][7]["to"], "r3");
    assert_eq!(q["steps"][8]["from"], "q2496");
    let path: Vec<&str> = q["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(path.len(), 18);
    assert_eq!(&path[..3], ["svc", "q0", "r0"]);
    assert_eq!(&path[8..11], ["r3", "q2496", "r2496"]);
    assert_eq!(path[17], "q2500");
    // Short paths carry no `elided` key at all.
    let q3 = rows.iter().find(|r| r["node"] == "q3").unwrap();
    assert!(q3.get("elided").is_none(), "{q3}");
}

/// A queue's dedup window acts on what is sent into it with a dedup id:
/// on the ring every queue after the first is reached by dead-lettering
/// and redrive, and `svc` sends without one, so no queue has a row.
#[test]
fn horizon_on_the_ring_shows_no_window_that_no_send_uses() {
    let d = manifest(&hostile_gen::ring(5000));
    let text = run(d.path(), &["horizon"], 0);
    assert_eq!(text.matches(" (transport): ").count(), 0);
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" total")).count(),
        3,
        "{}",
        text.get(..2000).unwrap_or(&text)
    );
}

#[test]
fn horizon_required_on_the_ring_is_one_row_per_layer() {
    let d = manifest(&hostile_gen::ring(5000));
    let text = run(d.path(), &["horizon", "--required"], 0);
    assert_eq!(
        text,
        "intent pay
  keys (guard store via `worker`): latest copy to stop unbounded, window 1h: no retention is long enough
      bound it with `max_times` on the redrive `q0` → `q1` (the cycle repeats without a bound)
"
    );
    let json = run(d.path(), &["horizon", "--required", "--format", "json"], 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["required"].as_array().unwrap().len(), 1);
    assert_eq!(v["required"][0]["verdict"], "unbounded");
}

#[test]
fn report_html_on_a_chain_of_20000_draws_the_findings_and_counts_the_rest() {
    let n = 20_000;
    let d = manifest(&hostile_gen::chain(n));
    let html = run(d.path(), &["report", "--format", "html"], 0);
    assert!(html.len() < PER_NODE * n, "{} bytes", html.len());
    // 20,003 components: the worker, its store, the bank and the last
    // service are drawn (what findings name and their neighbours).
    assert!(html.contains(
        ">19,999 more components and 19,999 links not drawn: above 200 components only those findings name, the ends of the errors' worst paths and their neighbours are drawn (graph --format dot has every one)</text>"
    ));
    let intent = html.find("<section class=\"intent\"").unwrap();
    let (architecture, pay) = html.split_at(intent);
    assert_eq!(architecture.matches("<g class=\"node ").count(), 4);
    // The intent's own drawing: the ends of its (elided) worst path, c0 to
    // c9 and c19992 to c19999, the worker, its store and the bank.
    assert_eq!(pay.matches("<g class=\"node ").count(), 21);
    assert!(pay.contains(">19,982 more components and 19,983 links not drawn"));
}

#[test]
fn graph_dot_on_a_chain_of_20000_has_every_component_and_link() {
    let n = 20_000;
    let d = manifest(&hostile_gen::chain(n));
    let dot = run(d.path(), &["graph", "--format", "dot"], 0);
    assert!(dot.len() < PER_NODE * n, "{} bytes", dot.len());
    assert_eq!(dot.matches(" [label=\"calls\"").count(), n);
    assert!(dot.contains("  \"c19999\" -> \"worker\" [label=\"calls\""));
}

#[test]
fn reports_on_3000_intents_through_one_hub_are_linear_in_the_intents() {
    let n = 3000;
    let d = manifest(&hostile_gen::hub(n));
    let md = run(d.path(), &["report", "--format", "markdown"], 0);
    assert_eq!(md.matches("\n## Intent `").count(), n);
    assert!(md.contains("\n## Intent `i2999`\n"));
    assert!(md.len() < 8 * PER_NODE * n, "{} bytes", md.len());
    let html = run(d.path(), &["report", "--format", "html"], 0);
    assert_eq!(
        html.matches("<section class=\"intent\" id=\"intent-")
            .count(),
        n
    );
    // Each failing answer quotes the findings that fail it.
    assert!(html.len() < 9 * PER_NODE * n, "{} bytes", html.len());
}

#[test]
fn check_table_cuts_a_word_of_1_6_mb_before_wrapping_it() {
    let (text, word) = hostile_gen::long_word(1_600_000);
    let d = manifest(&text);
    let table = run(d.path(), &["check", "--format", "table"], 1);
    assert!(table.len() < 64 * 1024, "{} bytes", table.len());
    assert!(!table.contains(&word[..121]));
    // The component cell and the path both keep 48 characters of the id.
    let cut = format!("{}…(+1,599,952 characters)", &word[..9]);
    assert!(table.contains(&cut), "{table}");
    let json = run(d.path(), &["check", "--format", "json"], 1);
    assert!(json.contains(&word), "JSON keeps the id whole");
}

/// A finding on a path of 5,000 relayed queues stays within GitHub's limit
/// of 1,000 locations per SARIF result.
#[test]
fn sarif_keeps_each_result_within_githubs_location_limit() {
    let d = manifest(&hostile_gen::relays(5000));
    let text = run(d.path(), &["check", "--format", "sarif"], 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    let most = results
        .iter()
        .map(|r| r["relatedLocations"].as_array().map_or(0, Vec::len))
        .max()
        .unwrap();
    assert!(most <= 1_000, "{most}");
    assert!(most > 100, "the long path shows many of its steps: {most}");
}
