//! Every rule page's example is true: the "Before" manifest fires the rule
//! and the "After" manifest does not.

use replay_audit::{analyse, manifest, rules};

fn examples(doc: &str) -> (String, String) {
    let blocks: Vec<&str> = doc
        .split("```yaml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert!(blocks.len() >= 2, "two yaml blocks");
    (blocks[0].to_string(), blocks[1].to_string())
}

fn codes(text: &str) -> Result<Vec<&'static str>, String> {
    let m = manifest::from_str(text).map_err(|e| e.render(false))?;
    Ok(rules::run(&analyse(&m))
        .iter()
        .map(|f| f.rule.code)
        .collect())
}

#[test]
fn before_fires_and_after_does_not() {
    let mut failures = Vec::new();
    for r in rules::RULES {
        let (before, after) = examples(r.doc);
        match codes(&before) {
            Ok(c) if c.contains(&r.code) => {}
            Ok(c) => failures.push(format!("{}: Before gives {c:?}", r.code)),
            Err(e) => failures.push(format!("{}: Before does not load:\n{e}", r.code)),
        }
        match codes(&after) {
            Ok(c) if !c.contains(&r.code) => {}
            Ok(c) => failures.push(format!("{}: After still gives {c:?}", r.code)),
            Err(e) => failures.push(format!("{}: After does not load:\n{e}", r.code)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
