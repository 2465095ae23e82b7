//! Horizons that follow each platform's own clocks (issue #16): every
//! fixture under `fixtures/clocks/` states, in its comment, the arithmetic
//! with fact ids and, on `# clocks:` lines, the exact horizon and window
//! of a row (`# clocks: NODE ROLE horizon=SECS window=SECS|none`), and on
//! its `# findings:` line the exact set of finding codes (`none`: none).

use std::collections::BTreeSet;
use std::path::PathBuf;

use replay_audit::report::horizon::rows;
use replay_audit::{analyse, manifest, rules};

#[path = "common/clock_rows.rs"]
mod clock_rows;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/clocks");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/clocks")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

fn load(path: &PathBuf) -> (String, replay_audit::Manifest) {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    let m = manifest::from_str(&text).unwrap_or_else(|e| panic!("{}", e.render(false)));
    (text, m)
}

#[test]
fn every_clock_fixture_has_its_exact_horizons_and_findings() {
    let files = fixtures();
    assert!(files.len() >= 7, "one fixture per item, and quiet ones");
    let mut failures = Vec::new();
    for path in &files {
        let (text, m) = load(path);
        let a = analyse(&m);
        let rows_checked = clock_rows::check(&text, &a, path, &mut failures);
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# findings:") {
                let want: BTreeSet<&str> =
                    rest.split_whitespace().filter(|w| *w != "none").collect();
                let got: BTreeSet<&str> = rules::run(&a).iter().map(|f| f.rule.code).collect();
                if got != want {
                    failures.push(format!(
                        "{}: findings: want {want:?}, got {got:?}",
                        path.display()
                    ));
                }
            }
        }
        assert!(rows_checked > 0, "{}: no `# clocks:` line", path.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn fixture(name: &str) -> replay_audit::Manifest {
    load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/clocks")
            .join(name),
    )
    .1
}

#[test]
fn the_horizon_shows_which_clock_ends_each_step() {
    let m = fixture("standard-dlq-keeps-enqueue.yaml");
    let a = analyse(&m);
    let row = rows(&a, None, Some("order-worker"))
        .into_iter()
        .find(|r| r.role == "guard")
        .expect("guard row");
    let steps: Vec<(Option<u64>, &str)> = row
        .steps
        .iter()
        .map(|s| (s.adds_seconds, s.why.as_str()))
        .collect();
    // 0 + 4d (F003) + 10d (capped: enqueue 0s + 14d, F004) + 4d (F008) = 18d.
    assert_eq!(
        steps.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![Some(0), Some(345_600), Some(864_000), Some(345_600)]
    );
    assert!(
        steps[2].1.ends_with(
            "the dead-letter queue keeps the enqueue time (F004): deadline = enqueue 0s + 14d = 14d, which ends the step"
        ),
        "{}",
        steps[2].1
    );
    // A new message whose delay ends first: the retention says it all.
    assert_eq!(
        steps[3].1,
        "delivers_to: at-least-once delivery: retention 4d (sqs-standard default, F003)"
    );
}

#[test]
fn the_required_retention_follows_the_corrected_horizon() {
    let m = fixture("standard-dlq-keeps-enqueue.yaml");
    let a = analyse(&m);
    let req = replay_audit::whatif::required(&a, None, Some("order-worker"));
    let guard: Vec<_> = req
        .iter()
        .map(|r| (r.horizon_seconds, r.required_retention_seconds))
        .collect();
    // 18d = 1,555,200 s, plus the 10 % default margin: 1,710,720 s.
    assert_eq!(guard, vec![(Some(1_555_200), Some(1_710_720))]);
}

#[test]
fn a_capped_redrive_promise_is_rh006_and_no_rh005() {
    let m = fixture("redrive-cap.yaml");
    let a = analyse(&m);
    let found: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code.starts_with("RH00"))
        .map(|f| {
            (
                f.rule.code,
                f.component.as_deref().map(str::to_string),
                f.horizon,
                f.window,
                f.loc.map(|l| (l.line, l.col)),
            )
        })
        .collect();
    // Promised 1d + 7d = 8d (691,200 s); the messages expire at 3d (259,200 s).
    assert_eq!(
        found,
        vec![(
            "RH006",
            Some("orders-dlq".to_string()),
            Some(replay_audit::time::Dur::secs(691_200)),
            Some(replay_audit::time::Dur::secs(259_200)),
            Some((32, 50))
        )]
    );
}

/// The step texts of `node`'s `role` row, in path order.
fn step_texts(a: &replay_audit::Analysis, node: &str, role: &str) -> Vec<String> {
    rows(a, None, Some(node))
        .into_iter()
        .find(|r| r.role == role)
        .unwrap_or_else(|| panic!("{node} {role} row"))
        .steps
        .iter()
        .map(|s| s.why.clone())
        .collect()
}

#[test]
fn a_stream_mapping_retries_within_the_record_life() {
    let m = fixture("stream-mapping.yaml");
    let a = analyse(&m);
    let steps = step_texts(&a, "counter", "guard");
    assert_eq!(
        steps[1],
        "delivers_to: retry 4 attempts: (30s + 0s) + (30s + 0s) + (30s + 0s) = 1m 30s; the mapping retries a failing batch while its records are in the stream (F027): the retries (1m 30s) end with the record, within 1d, and add nothing; at-least-once delivery: retention 1d (kinesis default, F021)"
    );
    // Every mapping is a birth point of duplicates (F026, F022): an
    // at-least-once redelivery, with or without declared retries.
    let births: Vec<_> = a
        .model
        .edges
        .iter()
        .filter(|e| e.ty == replay_audit::manifest::model::LinkType::DeliversTo)
        .map(|e| (m.components[e.to()].id.as_str(), e.birth))
        .collect();
    use replay_audit::analysis::Birth::Redelivery;
    assert_eq!(
        births,
        vec![
            ("counter", Some(Redelivery)),
            ("auditor", Some(Redelivery)),
            ("projector", Some(Redelivery))
        ]
    );
}

#[test]
fn a_mapping_into_lambda_is_at_least_once_whatever_the_source_says() {
    // F026: the mapping processes records at least once even when the
    // queue is declared exactly-once.
    let m = manifest::from_str(
        "version: 1\ncomponents:\n  q: { kind: queue, delivery: exactly-once, retention: 1h, delivers_to: [f] }\n  f: { kind: lambda-event-source }\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analyse(&m);
    assert_eq!(
        a.model.edges[0].birth,
        Some(replay_audit::analysis::Birth::Redelivery)
    );
    assert_eq!(
        a.model.edges[0].delay(),
        replay_audit::time::Dur::secs(3_600)
    );
}

#[test]
fn each_sns_step_names_what_bounds_it() {
    let m = fixture("RH051-quiet-http-endpoint.yaml");
    let a = analyse(&m);
    assert_eq!(
        step_texts(&a, "partner-hook", "guard")[1],
        "delivers_to: retry 4 attempts: 3 × (0s + 30s) = 1m 30s; the retries and the HTTP/S delivery policy cap 1h compose to the smaller, 1m 30s; at-least-once delivery: HTTP/S endpoint: retries end by 1h (sns-standard default, F016)"
    );
    let m = fixture("RH051-fires-managed-endpoint.yaml");
    let a = analyse(&m);
    assert_eq!(
        step_texts(&a, "audit-worker", "guard")[1],
        "delivers_to: retry 3 attempts: 2 × (0s + 20s) = 40s; the declared retry does not apply: SNS delivers to an AWS-managed endpoint by its fixed policy, 23d (F016); at-least-once delivery: delivery retried for up to max_event_age 23d (sns-standard default, F016)"
    );
    let found: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH051")
        .map(|f| (f.message, f.loc.map(|l| (l.line, l.col))))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "the `retry` on `order-events`'s subscription to `audit-queue` does not apply: SNS delivers to an AWS-managed endpoint (a queue, a function, a stream) by its fixed policy, 23d (sns-standard default, F016); only HTTP/S subscriptions take a delivery policy (F016), so the horizon uses the fixed one".to_string(),
                Some((35, 9))
            ),
            (
                "the `retry` on `order-events`'s subscription to `notifier` does not apply: SNS delivers to an AWS-managed endpoint (a queue, a function, a stream) by its fixed policy, 23d (sns-standard default, F016); only HTTP/S subscriptions take a delivery policy (F016), so the horizon uses the fixed one".to_string(),
                Some((36, 9))
            ),
        ]
    );
}

/// The horizon of `node`'s `role` row in seconds.
fn horizon_secs(a: &replay_audit::Analysis, node: &str, role: &str) -> Option<u64> {
    rows(a, None, Some(node))
        .into_iter()
        .find(|r| r.role == role)
        .unwrap_or_else(|| panic!("{node} {role} row"))
        .horizon_seconds
}

#[test]
fn an_unwritten_eventbridge_backoff_takes_the_cap_not_zero() {
    // F017: retries with backoff until the maximum event age; the imported
    // `max_record_age: 15m` is that cap: 900 s, not 0 s.
    let m = fixture("eventbridge-unwritten-backoff.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "billing", "guard"), Some(900));
    assert_eq!(
        step_texts(&a, "billing", "guard")[1],
        "delivers_to: retry 6 attempts; no backoff written: eventbridge retries with backoff until the cap (eventbridge default, F017), so the retries end by max_record_age 15m; at-least-once delivery: max_record_age 15m"
    );
    // The 5-minute guard window is now RH001 (900 s > 300 s).
    let rh001: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH001")
        .map(|f| (f.horizon, f.window))
        .collect();
    use replay_audit::time::Dur;
    assert_eq!(rh001, vec![(Some(Dur::secs(900)), Some(Dur::secs(300)))]);
    // A bus whose facts give no backoff (F019) takes its cap, 300 s, as
    // an assumption RH041 names.
    assert_eq!(horizon_secs(&a, "shipping", "guard"), Some(300));
    let rh041: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH041")
        .map(|f| f.message)
        .collect();
    assert_eq!(
        rh041,
        vec!["`new-bus.delivers_to.retry.backoff` is not given and kind `eventbridge-bus` has no documented default: the analysis assumed the retries last until max_event_age 5m".to_string()]
    );
}

#[test]
fn the_dead_letter_move_comes_a_visibility_timeout_after_the_last_receive() {
    // F002, F007: last receive at 30m + (2 - 1) × 12h = 45,000 s; the move
    // at 30m + 2 × 12h = 88,200 s; redrive 1h; delivery 45,000 s: 136,800 s.
    let m = fixture("dlq-move-after-visibility.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "order-worker", "guard"), Some(136_800));
    let steps: Vec<Option<u64>> = rows(&a, None, Some("order-worker"))
        .into_iter()
        .find(|r| r.role == "guard")
        .expect("guard row")
        .steps
        .iter()
        .map(|s| s.adds_seconds)
        .collect();
    assert_eq!(
        steps,
        vec![Some(0), Some(88_200), Some(3_600), Some(45_000)]
    );
    assert_eq!(
        step_texts(&a, "order-worker", "guard")[1],
        "dead_letter: moved to dead-letter queue after the source's delivery span: max_backlog 30m + 2 × visibility 12h = 1d 30m: moved when the last receive's visibility timeout ends (F002, F007) (below retention 4d)"
    );
    let rh001: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH001")
        .map(|f| (f.horizon, f.window))
        .collect();
    use replay_audit::time::Dur;
    assert_eq!(
        rh001,
        vec![(Some(Dur::secs(136_800)), Some(Dur::secs(108_000)))]
    );
}

#[test]
fn an_sns_fifo_archive_is_not_its_delivery_span() {
    // F015 is the archive, F016 the delivery policy: 23d + 4d = 2,332,800 s
    // (not 64d + 4d), and 23d + 1d = 2,073,600 s (not 1d + 1d).
    let m = fixture("sns-fifo-archive-not-delivery.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "order-worker", "guard"), Some(2_332_800));
    assert_eq!(horizon_secs(&a, "auditor", "guard"), Some(2_073_600));
    assert_eq!(
        step_texts(&a, "auditor", "guard")[1],
        "delivers_to: at-least-once delivery: delivery retried for up to max_event_age 23d (sns-fifo default, F016) (the archive retention 1d (F015) bounds only a declared replay)"
    );
    let rh001: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH001")
        .map(|f| (f.component.as_deref().map(str::to_string), f.horizon))
        .collect();
    assert_eq!(
        rh001,
        vec![(
            Some("audit-keys".to_string()),
            Some(replay_audit::time::Dur::secs(2_073_600))
        )]
    );
}

#[test]
fn a_retried_call_without_a_timeout_waits_for_the_callee() {
    // (60s + 1s) + (60s + 2s) = 123 s, not (0s + 1s) + (0s + 2s) = 3 s.
    let m = fixture("call-timeout-from-callee.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "payments", "guard"), Some(123));
    assert_eq!(
        step_texts(&a, "payments", "guard")[0],
        "calls: each attempt up to `payments`'s timeout 1m; retry 3 attempts: (1m + 1s) + (1m + 2s) = 2m 3s"
    );
    // No timeout anywhere (a generic service documents none): 0 s per
    // attempt, 3 s, and RH041 says so.
    assert_eq!(horizon_secs(&a, "fraud", "guard"), Some(3));
    let rh041: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH041")
        .map(|f| f.message)
        .collect();
    assert_eq!(
        rh041,
        vec!["`checkout.calls.retry.timeout` is not given and kind `service` has no documented default: the analysis assumed 0s per attempt".to_string()]
    );
}

#[test]
fn an_unwritten_failover_delay_is_an_assumption_not_a_silent_zero() {
    // No platform documents detection or catch-up: 0 s each, named by RH041.
    let m = manifest::from_str(
        "version: 1\nregions:\n  eu: { failover_to: us, detection: 5m }\n  us: {}\nintents:\n  pay: { origin: api, effects: [ledger], key: { fields: [id], persisted_before_retry: true } }\ncomponents:\n  api: { kind: service, regions: [eu, us], mode: active-passive, effects: [{ to: ledger, passes_key: true }] }\n  ledger: { kind: external, accepts_key: true, key_window: 1d }\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analyse(&m);
    let fields: Vec<_> = a
        .model
        .assumed
        .iter()
        .map(|x| (x.field.as_str(), x.value.as_str()))
        .collect();
    assert_eq!(fields, vec![("catch_up (of region eu)", "0s")]);
}

#[test]
fn an_unwritten_retry_count_on_a_push_delivery_is_the_platform_default() {
    // Before, `retry` without `attempts` meant one attempt: 0 s.
    // bus (eventbridge-bus): 6 attempts by default (F019), 100 s apart:
    // 5 × 100 s = 500 s, capped by max_event_age 300 s (F019) = 300 s.
    // rule (eventbridge): 186 attempts (F017) doubling from 1 s reach the
    // cap, max_event_age 24h (F017) = 86,400 s.
    let m = manifest::from_str(
        "version: 1\ncomponents:\n  checkout: { kind: service, sends_to: [bus, rule] }\n  bus:\n    kind: eventbridge-bus\n    delivers_to: [{ to: shipping, retry: { backoff: 100s, multiplier: 1 } }]\n  rule:\n    kind: eventbridge\n    delivers_to: [{ to: billing, retry: { backoff: 1s } }]\n  shipping: { kind: service }\n  billing: { kind: service }\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analyse(&m);
    let delays: Vec<_> = a
        .model
        .edges
        .iter()
        .filter(|e| e.ty == replay_audit::manifest::model::LinkType::DeliversTo)
        .map(|e| (m.components[e.to()].id.as_str(), e.delay()))
        .collect();
    use replay_audit::time::Dur;
    assert_eq!(
        delays,
        vec![("shipping", Dur::secs(300)), ("billing", Dur::secs(86_400))]
    );
    assert!(a.model.assumed.is_empty(), "{:?}", a.model.assumed);
}

#[test]
fn an_unwritten_retention_with_a_documented_maximum_is_that_cap_by_name() {
    // F054: at most 90 d = 7,776,000 s, not an assumed unbounded retention.
    let m = fixture("event-hubs-retention-cap.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "order-worker", "guard"), Some(7_776_000));
    assert_eq!(
        step_texts(&a, "order-worker", "guard")[1],
        "delivers_to: at-least-once delivery: retention not given: its documented maximum 90d (event-hubs maximum, F054)"
    );
    assert!(a.model.assumed.is_empty(), "{:?}", a.model.assumed);
}

#[test]
fn the_horizon_names_the_cap_that_bounds_the_retries() {
    // 2 × 10m = 20m of retries; the link's max_record_age 15m (F017's
    // MaximumEventAgeInSeconds, as imported) is the cap, not the bus's
    // max_event_age 24h: 900 s, and the step names max_record_age.
    let m = manifest::from_str(
        "version: 1\nintents:\n  pay: { origin: api, effects: [ledger], key: { fields: [id], persisted_before_retry: true } }\ncomponents:\n  api: { kind: service, sends_to: rule }\n  rule:\n    kind: eventbridge\n    delivers_to: [{ to: worker, max_record_age: 15m, retry: { attempts: 3, backoff: 10m, multiplier: 1 } }]\n  worker: { kind: service, effects: [{ to: ledger, passes_key: true }] }\n  ledger: { kind: external, accepts_key: true, key_window: 1d }\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "ledger", "effect"), Some(900));
    assert_eq!(
        step_texts(&a, "ledger", "effect")[1],
        "delivers_to: retry 3 attempts: 2 × (0s + 10m) = 20m; the retries and max_record_age 15m compose to the smaller, 15m; at-least-once delivery: max_record_age 15m"
    );
}

#[test]
fn a_sub_second_backoff_counts_and_the_horizon_is_rounded_up() {
    // Issue #33 item 5: 9 × 1000 ms + 500 × (2^9 - 1) ms = 264,500 ms,
    // 265 s rounded up (264 would be optimistic); the 4m store: RH001.
    let m = fixture("sub-second-backoff.yaml");
    let a = analyse(&m);
    assert_eq!(horizon_secs(&a, "payments", "guard"), Some(265));
    assert_eq!(
        step_texts(&a, "payments", "guard")[0],
        "calls: retry 10 attempts: (1s + 500ms) + (1s + 1s) + (1s + 2s) + (1s + 4s) + (1s + 8s) + (1s + 16s) + … = 4m 24s 500ms"
    );
    let rh001: Vec<_> = rules::run(&a)
        .into_iter()
        .filter(|f| f.rule.code == "RH001")
        .map(|f| (f.horizon, f.window))
        .collect();
    use replay_audit::time::Dur;
    assert_eq!(rh001, vec![(Some(Dur::ms(264_500)), Some(Dur::secs(240)))]);
}

#[test]
fn a_positive_sub_second_timeout_is_not_refused_as_zero() {
    // `timeout: 100ms` (and 0.4ms, rounded up to 1 ms) is positive: the
    // loader takes it where zero is refused, and the 100 ms attempt makes
    // a horizon of 1 s, rounded up, not 0.
    let manifest = |timeout: &str| {
        format!(
            "version: 1\nintents:\n  pay: {{ origin: api, effects: [ledger], key: {{ fields: [id], persisted_before_retry: true }} }}\ncomponents:\n  api:\n    kind: service\n    calls: [{{ to: worker, passes_key: true, retry: {{ attempts: 2, timeout: {timeout}, backoff: 0s }} }}]\n  worker: {{ kind: function, timeout: {timeout}, effects: [{{ to: ledger, passes_key: true }}] }}\n  ledger: {{ kind: external, accepts_key: true, key_window: 1d }}\n"
        )
    };
    for (timeout, ms) in [("100ms", 100), ("0.4ms", 1)] {
        let m = manifest::from_str(&manifest(timeout))
            .unwrap_or_else(|e| panic!("{timeout}: {}", e.render(false)));
        let a = analyse(&m);
        assert_eq!(horizon_secs(&a, "ledger", "effect"), Some(1), "{timeout}");
        let row = rows(&a, None, Some("ledger"))
            .into_iter()
            .find(|r| r.role == "effect")
            .expect("effect row");
        assert_eq!(row.horizon, replay_audit::time::Dur::ms(ms), "{timeout}");
    }
    let err = manifest::from_str(&manifest("0s")).expect_err("zero is refused");
    assert!(
        err.render(false)
            .contains("is zero, which makes no sense here"),
        "{}",
        err.render(false)
    );
}
