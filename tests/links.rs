//! The documentation links only to what a clone has: every relative link in
//! README.md and docs/**/*.md names a file (and heading) in the repository,
//! nothing points at `../shared` or outside the repository, and every
//! source path the README and docs/architecture.md name exists.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![Path::new(ROOT).join("README.md")];
    let mut dirs = vec![Path::new(ROOT).join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Link targets: `[text](target)` and `[label]: target`.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let t: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
        out.push(t.split_whitespace().next().unwrap_or_default().to_string());
    }
    for line in text.lines() {
        let l = line.trim_start();
        if let Some(rest) = l.strip_prefix('[')
            && let Some((_, target)) = rest.split_once("]: ")
        {
            out.push(target.trim().to_string());
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces
/// as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The headings' anchors and the `<a id="...">` ones.
fn anchors(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect();
    for (i, _) in text.match_indices("<a id=\"") {
        let id: String = text[i + 7..].chars().take_while(|c| *c != '"').collect();
        out.push(id);
    }
    out
}

#[test]
fn every_relative_link_resolves_inside_the_repository() {
    let root = Path::new(ROOT).canonicalize().unwrap();
    let mut bad = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(ROOT).unwrap().display().to_string();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            checked += 1;
            if target.contains("shared/") || target.starts_with('/') {
                bad.push(format!("{name}: {target} is not in the repository"));
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let Ok(dest) = dest.canonicalize() else {
                bad.push(format!("{name}: {target} does not exist"));
                continue;
            };
            if !dest.starts_with(&root) {
                bad.push(format!("{name}: {target} is outside the repository"));
                continue;
            }
            if !anchor.is_empty() && dest.extension().is_some_and(|x| x == "md") {
                let there = std::fs::read_to_string(&dest).unwrap();
                if !anchors(&there).iter().any(|a| a == anchor) {
                    bad.push(format!("{name}: {target}: no heading #{anchor}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
    assert!(
        checked > 50,
        "only {checked} relative links found: the scan is broken"
    );
}

#[test]
fn the_link_checker_sees_what_it_must() {
    let text = "[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md\n";
    assert_eq!(links(text), ["x.md", "y.md", "w.md"]);
    assert_eq!(slug(" `check --format json`"), "check---format-json");
    assert_eq!(slug("Exit status"), "exit-status");
}

#[test]
fn source_paths_named_in_the_readme_and_architecture_exist() {
    let mut missing = Vec::new();
    for doc in ["README.md", "docs/architecture.md"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(doc)).unwrap();
        for word in text.split(|c: char| c.is_whitespace() || "`(),;:".contains(c)) {
            let word = word.trim_end_matches(['.', '/']);
            let named = [
                "src/",
                "tests/",
                "docs/",
                "fixtures/",
                "examples/",
                "benches/",
            ]
            .iter()
            .any(|p| word.starts_with(p));
            // Patterns (`docs/rules/<CODE>.md`, `src/commands/<name>.rs`) are not paths.
            if !named || word.contains(['<', '*', '{']) || word.contains("RHnnn") {
                continue;
            }
            if !Path::new(ROOT).join(word).exists() {
                missing.push(format!("{doc}: {word}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}
