//! The direct reader against the tree reader: where it does not give up,
//! it reads exactly the model and the errors the tree reader reads; on
//! valid input it never gives up; on each kind of invalid entry it gives
//! up rather than reading something else.

use super::*;

#[path = "../../../examples/synth/mod.rs"]
mod synth;

/// What the direct reader alone reads of `texts`; `None` if it gave up on
/// any file.
fn direct_only(texts: &[(&str, &str)]) -> Option<Loaded> {
    let limits = Limits::default();
    let mut sources = SourceMap::default();
    let mut r = Reader::default();
    let mut out = Collected::default();
    for (path, text) in texts {
        let file = sources.add(path.to_string(), text.to_string());
        let text = &sources.files[file as usize].text;
        let mut doc = Doc::new(file);
        let mut read = Collected::default();
        let mut sink = direct::Direct {
            r: &mut r,
            doc: &mut doc,
            out: &mut read,
        };
        yaml_events::stream_to(text, file, &limits, SECTIONS, &mut sink).ok()?;
        r.end_doc(&doc);
        out.append(read);
    }
    Some(out.finish(sources, r))
}

/// What the tree reader reads of `texts` (what-if's reading).
fn tree_only(texts: &[(&str, &str)]) -> Loaded {
    let owned = texts
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    match parse_texts(owned, &Limits::default()) {
        Ok((sources, trees)) => load_nodes(sources, &trees),
        Err((_, errors)) => Loaded {
            manifest: Manifest::default(),
            errors,
            defined: Default::default(),
        },
    }
}

fn show(l: &Loaded) -> String {
    let mut defined: Vec<_> = l.defined.iter().collect();
    defined.sort();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{defined:?}",
        l.manifest.name, l.manifest.regions, l.manifest.intents, l.manifest.components, l.errors
    )
}

/// Whether the direct reader read `texts`; when it did, its reading is
/// the tree reader's.
fn agrees(texts: &[(&str, &str)]) -> bool {
    let Some(direct) = direct_only(texts) else {
        return false;
    };
    assert_eq!(show(&direct), show(&tree_only(texts)), "{texts:?}");
    true
}

/// Every YAML file under `dir`, Terraform files left out.
fn yaml_files(dir: &str) -> Vec<PathBuf> {
    let mut files = discover(&[PathBuf::from(dir)]).unwrap();
    files.retain(|f| !crate::import::terraform::is_found_input(f));
    files
}

#[test]
fn direct_and_tree_reading_agree_on_every_fixture_and_valid_ones_stay_direct() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = yaml_files(&format!("{root}/fixtures"));
    files.extend(yaml_files(&format!("{root}/examples")));
    assert!(files.len() > 20, "{}", files.len());
    let mut direct = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let texts = [(name.as_str(), text.as_str())];
        if agrees(&texts) {
            direct += 1;
        } else {
            // Only a file with errors, or one using anchors, leaves the
            // direct reader.
            let anchored = text.contains('&') || text.contains('*');
            assert!(
                anchored || !tree_only(&texts).errors.is_empty(),
                "valid {name} left the direct reader"
            );
        }
    }
    assert!(direct > files.len() / 2, "{direct} of {}", files.len());
}

#[test]
fn direct_and_tree_reading_agree_on_generated_manifests() {
    for (components, seed) in [(60, 1), (400, 2), (1500, 3)] {
        let (text, _) = synth::generate(&synth::Config::new(components, seed));
        assert!(
            agrees(&[("m.yaml", &text)]),
            "seed {seed} left the direct reader"
        );
    }
    // Several files: ids defined twice across them are reported alike.
    let many = synth::generate_many(3, 40, 5);
    let texts: Vec<_> = many.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    assert!(agrees(&texts));
    let twice = [("a.yaml", texts[0].1), ("b.yaml", texts[0].1)];
    assert!(agrees(&twice));
    assert!(!direct_only(&twice).unwrap().errors.is_empty());
}

/// Odd but valid documents the direct reader reads, as the tree reader.
const ODD: &[&str] = &[
    "version: 1\ncomponents: {}\nintents: {}\nregions: {}\n",
    "version: 1\ncomponents:\n",
    "version: 1\nname: x\ncomponents: {q: {kind: sqs-standard, retention: 4d}}\n",
    "version: 1\ncomponents:\n  q: {\"kind\": 'sqs-standard', 'visibility_timeout': \"30\"}\n",
    "version: 1\ncomponents:\n  q:\n    retention: 345600\n    kind: sqs-standard\n    timeout: 30s\n    max_receives: 3\n    delivery: at-least-once\n",
    "version: 1\ncomponents:\n  a: {kind: lambda, sends_to: b}\n  b: {kind: sqs-standard, delivers_to: [c, {to: c, retry: {attempts: 3, backoff: 1s, multiplier: 2, max_backoff: 10s}}]}\n  c: {kind: lambda, calls: {to: d, timeout: 5s}, effects: d}\n  d: {kind: dynamodb}\n",
    "version: 1\ncomponents:\n  q:\n    kind: sqs-standard\n    dead_letter: {to: d, after_receives: 5}\n    redrive: d\n    regions: eu\n  d: {kind: sqs-standard, regions: [eu, us], description: 42}\n",
    "version: 1\ncomponents:\n  f:\n    kind: lambda\n    dedup: {store: t, claim: conditional-write, stores_result: yes, in_progress: {expires_after: 60, on_expiry: retry}}\n    backup: {rpo: 1h, restored_with: [t]}\n  t: {kind: dynamodb, backup: {rpo: 0}}\n",
    "version: 1\nintents:\n  pay:\n    effect: [a, b]\n    origin: a\n    key: {fields: order_id, minted: per-intent, persisted_before_retry: true}\n    replays: {enters_at: a, within: 7d}\n    tested: [one, 2]\n  refund: {origin: a, effects: a, replays: [{name: r, enters_at: a, within: 0}], fingerprint: x}\n",
    "version: 1\nregions:\n  eu:\n  us: {failover_to: eu, detection: 5m, catch_up: 1h}\n  ap: ~\n",
    "components:\n  a: {kind: lambda}\n",
    "version: '1'\ncomponents:\n  a: {kind: lambda, mode: active-active, accepts_key: off}\n",
    // An id refused, or defined twice, is bookkeeping, not a value: the
    // direct reader reports it as the tree reader does and goes on.
    "version: 1\ncomponents:\n  a: {kind: lambda}\n  Q: {kind: [any, thing]}\nintents:\n  a: {origin: a, effect: a}\n",
];

#[test]
fn direct_and_tree_reading_agree_on_odd_valid_documents() {
    for text in ODD {
        assert!(agrees(&[("m.yaml", text)]), "{text}");
    }
}

/// Entries the tree reader reports or reads in a way of its own: the
/// direct reader gives up on each (after which the tree reader reads it).
const BAILS: &[&str] = &[
    "  q: {kind: sqs-standard, retension: 4d}\n",
    "  q: {kind: [sqs-standard]}\n",
    "  q: {kind: sqs-standard, retention: soon}\n",
    "  q: {kind: sqs-standard, retention: -1}\n",
    "  q: {kind: sqs-standard, timeout: 0}\n",
    "  q: {kind: sqs-standard, max_receives: 0}\n",
    "  q: {kind: sqs-standard, max_receives: three}\n",
    "  q: {kind: sqs-standard, delivery: twice}\n",
    "  q: {kind: sqs-standard, accepts_key: maybe}\n",
    "  q: {kind: sqs-standard, sends_to: Not_An_Id}\n",
    "  q: {kind: sqs-standard, sends_to: 7}\n",
    "  q: {kind: sqs-standard, sends_to: {timeout: 5s}}\n",
    "  q: {kind: sqs-standard, sends_to: {to: a, retry: {multiplier: 0}}}\n",
    "  q: {kind: sqs-standard, regions: {eu: 1}}\n",
    "  q: {retention: 4d}\n",
    "  q: {kind: sqs-standard, kind: lambda}\n",
    "  q: {kind: sqs-standard, 7: x}\n",
    "  q: {kind: sqs-standard, [x]: y}\n",
    "  q: &a {kind: sqs-standard}\n",
    "  q: {kind: &k sqs-standard}\n",
    "  q: {<<: {kind: lambda}}\n",
    "  q: {kind: sqs-standard, dedup: {claim: conditional-write}}\n",
    "  q: {kind: sqs-standard, backup: 1h}\n",
    "  q: {kind: sqs-standard, message_attributes: 3}\n",
    "  q: []\n",
    "  q:\n",
];

const BAILING_INTENTS: &[&str] = &[
    "  i: {origin: a, effect: a, effects: a}\n",
    "  i: {effect: a}\n",
    "  i: {origin: a}\n",
    "  i: {origin: a, effect: a, key: [x]}\n",
    "  i: {origin: a, effect: a, key: {minted: sometimes}}\n",
    "  i: {origin: a, effect: a, replays: [{enters_at: a}]}\n",
    "  i: {origin: a, effect: a, tested: {x: 1}}\n",
    "  i: {origin: a, effect: null}\n",
];

#[test]
fn direct_reading_gives_up_on_each_kind_of_invalid_entry() {
    let cases = BAILS
        .iter()
        .map(|e| format!("version: 1\ncomponents:\n  a: {{kind: lambda}}\n{e}"))
        .chain(
            BAILING_INTENTS
                .iter()
                .map(|e| format!("version: 1\ncomponents:\n  a: {{kind: lambda}}\nintents:\n{e}")),
        )
        .chain(["version: 1\nregions:\n  eu: {detection: 0s, failover_to: US}\n".into()])
        .chain(["version: 1\nregions:\n  eu: 5\n".into()])
        .chain(["x: &d {kind: lambda}\nversion: 1\ncomponents:\n  a: *d\n".into()]);
    for text in cases {
        assert!(direct_only(&[("m.yaml", &text)]).is_none(), "{text}");
        // The full reading is the tree reader's.
        let full = stream_texts([("m.yaml".to_string(), text.clone())], &Limits::default());
        assert_eq!(
            show(&full),
            show(&tree_only(&[("m.yaml", &text)])),
            "{text}"
        );
    }
}

/// A field name read as a key is always the text the tree reader compares.
#[test]
fn every_field_name_is_text_when_plain() {
    use crate::manifest::vocabulary::Obj;
    let objects = [
        COMPONENT_FIELDS,
        INTENT_FIELDS,
        REGION_FIELDS,
        KEY_FIELDS,
        REPLAY_FIELDS,
        RETRY_FIELDS,
        GUARD_FIELDS,
        IN_PROGRESS_FIELDS,
        BACKUP_FIELDS,
        Obj::link(LinkType::SendsTo).names(),
        Obj::link(LinkType::DeadLetter).names(),
    ];
    for names in objects {
        assert!(names.len() <= 64, "{names:?}");
        for name in names {
            let v = yaml_events::typed((*name).into(), granit_parser::ScalarStyle::Plain);
            assert_eq!(v, Ok(Value::Str(name.to_string())), "{name}");
        }
    }
}
