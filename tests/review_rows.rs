//! The review reads the horizon rows with the paths of effects only
//! (`horizon::rows_with_paths`): every row is there, each effect's path and
//! steps are the ones `horizon` prints, and no other row pays for a path.

use std::path::Path;

use replay_audit::report::horizon::{self, Row};
use replay_audit::{analysis, manifest};

fn analysed(path: &str) -> manifest::model::Manifest {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    manifest::from_str(&text).unwrap_or_else(|e| panic!("{}", e.render(false)))
}

fn key(r: &Row) -> (String, String, &'static str, Option<u64>, Option<u64>) {
    (
        r.intent.clone(),
        r.node.clone(),
        r.role,
        r.horizon_seconds,
        r.window_seconds,
    )
}

#[test]
fn effect_rows_keep_their_paths_and_the_others_have_none() {
    for path in [
        "fixtures/incident-dlq-redrive.yaml",
        "fixtures/regional-evacuation.yaml",
        "fixtures/sound-payouts.yaml",
    ] {
        let m = analysed(path);
        let a = analysis::analyse(&m);
        let all = horizon::rows(&a, None, None);
        let some = horizon::rows_with_paths(&a, &|role| role == "effect");
        assert_eq!(
            all.iter().map(key).collect::<Vec<_>>(),
            some.iter().map(key).collect::<Vec<_>>(),
            "{path}"
        );
        let mut effects = 0;
        for (x, y) in all.iter().zip(&some) {
            if x.role == "effect" {
                effects += 1;
                assert!(!x.path.is_empty(), "{path}: {x:?}");
                assert_eq!(x.path, y.path, "{path}");
                let steps = |r: &Row| {
                    r.steps
                        .iter()
                        .map(|s| (s.from.clone(), s.to.clone(), s.adds_seconds, s.why.clone()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(steps(x), steps(y), "{path}");
            } else {
                assert!(y.path.is_empty() && y.steps.is_empty(), "{path}: {y:?}");
                assert!(y.elided.is_none(), "{path}");
            }
        }
        assert!(effects > 0, "{path} has an effect row");
    }
}
