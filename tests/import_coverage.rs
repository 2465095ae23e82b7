//! The coverage line every import ends with (docs/import.md, "What an
//! import covers"): a test walks every input under `fixtures/import/` (each
//! file or folder an importer reads), counts its units here, apart from the
//! importer (CloudFormation `Resources` entries with those of the nested
//! stacks and CDK stacks read, Terraform `resource` blocks of the root and
//! of every module it calls, a plan's managed resources, AsyncAPI channels
//! and operations), and asserts that `read + not imported` is that count
//! and that the references left unresolved are the `TODO:` lines that name
//! one. Plus SAM function events (Schedule, ScheduleV2, Api, HttpApi).

use std::path::{Path, PathBuf};

#[path = "common/imports.rs"]
mod imports;
use imports::{check_overlaid, import, run, t, transcript};

use replay_audit::import::Node;

/// `fixtures/import/`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/import")
}

/// What a coverage line says: (units, read, not imported, unresolved).
fn numbers(line: &str) -> (usize, usize, usize, usize) {
    let n = |after: &str, s: &str| -> usize {
        let at = s.find(after).unwrap_or_else(|| panic!("`{after}` in {s}"));
        let rest = &s[at + after.len()..];
        rest.split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let total = n("coverage: ", line);
    let read = n(
        ": ",
        &line[line.find(" resource").or(line.find(" channel")).unwrap()..],
    );
    let missed = n(" read, ", line);
    let unresolved: usize = line
        .rsplit("; ")
        .next()
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    (total, read, missed, unresolved)
}

/// The `TODO:` lines of a skeleton that name a reference left unresolved:
/// a link whose target is not in the input or known only at deployment,
/// a placeholder standing for one, an id referenced but not described.
/// (A value known only at deployment that is no link, a data source, a
/// missing property are TODOs too, but name no reference.)
fn unresolved_todos(skeleton: &str) -> usize {
    const NAMING: [&str; 9] = [
        "not in this template",
        "not in this configuration",
        "not in this plan",
        "a resource this importer does not read",
        "TODO: a placeholder for output",
        "TODO: placeholder for `",
        "is referenced by `",
        "has no channel this importer can resolve",
        "is not a queue of this template",
    ];
    /// The links whose target may be known only at deployment.
    const LINKS: [&str; 7] = [
        "TODO: delivers_to ",
        "TODO: dead_letter to ",
        "TODO: calls ",
        "TODO: source ",
        "TODO: on-success destination ",
        ": bucket ",
        ": source ",
    ];
    let deployed =
        |l: &str| l.contains("is known only at deployment") && LINKS.iter().any(|p| l.contains(p));
    let unread_source = |l: &str| l.contains("TODO: event ") && l.contains(": source ");
    skeleton
        .lines()
        .filter(|l| l.contains("TODO:") && !l.starts_with("#   - "))
        .filter(|l| !l.contains("is a data source"))
        .filter(|l| NAMING.iter().any(|p| l.contains(p)) || deployed(l) || unread_source(l))
        .count()
}

/// The entries of `key` of a parsed document.
fn entries<'a>(n: &'a Node, key: &str) -> &'a [(Node, Node)] {
    n.get(key).map(Node::entries).unwrap_or(&[])
}

fn parse(path: &Path) -> Node {
    let text = std::fs::read_to_string(path).unwrap();
    replay_audit::import::parse(&text, 0, &Default::default())
        .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// The resources of a template and of the nested templates it reads (a
/// local `TemplateURL`/`Location`, or the CDK's `aws:asset:path`), each
/// as many times as a stack nests it.
fn template_resources(path: &Path, depth: usize) -> usize {
    let doc = parse(path);
    let dir = path.parent().unwrap();
    let mut n = 0;
    for (_, r) in entries(&doc, "Resources") {
        n += 1;
        let ty = r.get("Type").and_then(Node::str).unwrap_or("");
        if !matches!(
            ty,
            "AWS::CloudFormation::Stack" | "AWS::Serverless::Application"
        ) {
            continue;
        }
        let asset = r.get("Metadata").and_then(|m| m.get("aws:asset:path"));
        let props = r.get("Properties");
        let url = asset
            .or_else(|| props.and_then(|p| p.get("TemplateURL")))
            .or_else(|| props.and_then(|p| p.get("Location")))
            .and_then(Node::str)
            .unwrap_or("");
        let nested = dir.join(url);
        let local = !url.is_empty() && !url.contains("://") && !url.starts_with('/');
        if local && nested.is_file() && depth < 8 {
            n += template_resources(&nested, depth + 1);
        }
    }
    n
}

/// The resources of every stack of a CDK cloud assembly, its stages'
/// assemblies included.
fn assembly_resources(dir: &Path) -> usize {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let mut n = 0;
    for a in manifest["artifacts"].as_object().unwrap().values() {
        let p = &a["properties"];
        match a["type"].as_str().unwrap() {
            "aws:cloudformation:stack" => {
                n += template_resources(&dir.join(p["templateFile"].as_str().unwrap()), 0)
            }
            "cdk:cloud-assembly" => {
                n += assembly_resources(&dir.join(p["directoryName"].as_str().unwrap()))
            }
            _ => {}
        }
    }
    n
}

/// The `resource` blocks of a module folder and of every module it calls
/// (a local source, or the module cache `terraform init` writes under
/// `top`, keyed `a.b` for nested calls), each as many times as it is
/// called. The fixtures are formatted as `terraform fmt` writes them:
/// blocks start at the line's start and close with `}` there.
fn terraform_resources(dir: &Path, top: &Path, key: &str) -> usize {
    let cache = std::fs::read_to_string(top.join(".terraform/modules/modules.json"))
        .ok()
        .map(|t| serde_json::from_str::<serde_json::Value>(&t).unwrap());
    let mut n = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tf"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut module: Option<String> = None;
        for line in text.lines() {
            if line.starts_with("resource \"") {
                n += 1;
            } else if let Some(rest) = line.strip_prefix("module \"") {
                module = Some(rest.split('"').next().unwrap().to_string());
            } else if line.starts_with('}') {
                module = None;
            } else if let (Some(name), Some(src)) = (&module, line.trim().strip_prefix("source")) {
                let src = src.trim_start_matches([' ', '=']).trim().trim_matches('"');
                let call = if key.is_empty() {
                    name.clone()
                } else {
                    format!("{key}.{name}")
                };
                let folder = if src.starts_with("./") || src.starts_with("../") {
                    Some(dir.join(src))
                } else {
                    cache
                        .as_ref()
                        .and_then(|c| {
                            c["Modules"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .find(|m| m["Key"] == call.as_str())
                        })
                        .map(|m| top.join(m["Dir"].as_str().unwrap()))
                };
                if let Some(folder) = folder.filter(|f| f.is_dir()) {
                    n += terraform_resources(&folder, top, &call);
                }
            }
        }
    }
    n
}

/// The managed resources a plan lists, in its root module and children.
fn plan_resources(path: &Path) -> usize {
    fn module(m: &serde_json::Value) -> usize {
        let own = m["resources"]
            .as_array()
            .map_or(0, |r| r.iter().filter(|r| r["mode"] != "data").count());
        own + m["child_modules"]
            .as_array()
            .map_or(0, |c| c.iter().map(module).sum())
    }
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    module(&plan["planned_values"]["root_module"])
}

/// The channels and operations of an AsyncAPI document (a 2.x channel's
/// `publish` and `subscribe` are its operations).
fn asyncapi_units(path: &Path) -> usize {
    let doc = parse(path);
    let channels = entries(&doc, "channels");
    let ops: usize = match doc.get("operations") {
        Some(o) => o.entries().len(),
        None => channels
            .iter()
            .map(|(_, c)| {
                ["publish", "subscribe"]
                    .iter()
                    .filter(|v| c.get(v).is_some())
                    .count()
            })
            .sum(),
    };
    channels.len() + ops
}

/// An input an importer reads: the `import` arguments and its units.
struct Input {
    args: Vec<String>,
    units: usize,
}

/// Every input under `dir` (relative to `fixtures/import/`): templates,
/// plans and AsyncAPI documents by their content, folders of `.tf` files,
/// CDK cloud assemblies. Overlays (manifests), the Step Functions
/// definition a template names and the CDK app's own files are no inputs.
fn inputs(dir: &Path, found: &mut Vec<Input>) {
    let base = root();
    let rel = |p: &Path| p.strip_prefix(&base).unwrap().display().to_string();
    if dir.join("manifest.json").is_file() && dir.join("cdk.out").is_file() {
        let units = assembly_resources(dir);
        found.push(Input {
            args: vec!["cloudformation".into(), rel(dir)],
            units,
        });
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    if entries
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "tf"))
    {
        let units = terraform_resources(dir, dir, "");
        found.push(Input {
            args: vec!["terraform".into(), rel(dir)],
            units,
        });
    }
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !name.starts_with('.') {
                inputs(&p, found);
            }
            continue;
        }
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().to_string())
            .unwrap_or_default();
        if name.ends_with("overlay.yaml") || !matches!(ext.as_str(), "yaml" | "json") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let (format, units) = if text.contains("\"planned_values\"") {
            ("terraform", plan_resources(&p))
        } else if text.contains("asyncapi") && parse(&p).get("asyncapi").is_some() {
            ("asyncapi", asyncapi_units(&p))
        } else if parse(&p).get("Resources").is_some() {
            ("cloudformation", template_resources(&p, 0))
        } else {
            // A manifest (`merge/`), a Step Functions definition, the
            // CDK app's package.json: not read by an importer alone.
            continue;
        };
        found.push(Input {
            args: vec![format.into(), rel(&p)],
            units,
        });
    }
}

#[test]
fn every_fixture_adds_up_to_its_input() {
    let mut all = Vec::new();
    inputs(&root(), &mut all);
    // Every kind of input is walked (a miscount of the walk would hide
    // fixtures): templates, nested stacks, CDK, Terraform folders and
    // plans, AsyncAPI documents.
    for f in [
        "cdk-app/cdk.out",
        "nested/template.yaml",
        "terraform-module-cache",
        "terraform-plans/orders.json",
        "asyncapi3-sqs.yaml",
        "sam-function-events.yaml",
    ] {
        assert!(all.iter().any(|i| i.args[1] == f), "{f} not walked");
    }
    assert!(all.len() >= 60, "{} inputs", all.len());
    let mut wrong = Vec::new();
    for input in &all {
        let args: Vec<&str> = input.args.iter().map(String::as_str).collect();
        let (text, err, code) = import(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let line = err
            .lines()
            .find(|l| l.starts_with("coverage: "))
            .unwrap_or_else(|| panic!("{args:?}: no coverage line: {err}"));
        assert_eq!(
            err.lines().count(),
            1,
            "{args:?}: one line on stderr: {err}"
        );
        assert!(
            text.contains(&format!("# {line}\n")),
            "{args:?}: the header holds it"
        );
        let (total, read, missed, unresolved) = numbers(line);
        let todos = unresolved_todos(&text);
        if (total, read + missed, unresolved) != (input.units, input.units, todos) {
            wrong.push(format!(
                "{args:?}: input {} units, TODO lines naming a reference {todos}; {line}",
                input.units
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn check_prints_the_coverage_line_of_each_skeleton() {
    // One line per skeleton, after its name: a run may read templates
    // (one skeleton for all), Terraform root modules and AsyncAPI
    // documents, each counted in its own unit.
    let (_, err, _) = run(&[
        "check",
        "sam-function-events.yaml",
        "sam-function-events.overlay.yaml",
        "asyncapi3-sqs.yaml",
        "--format",
        "json",
    ]);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("coverage: ")).collect();
    assert_eq!(
        lines,
        [
            "sam-function-events.yaml: coverage: 5 resources: 2 read, 3 not imported (1 AWS::Cognito::UserPool, 1 AWS::IAM::Role, 1 AWS::Logs::LogGroup); 1 event not imported; 0 references unresolved",
            "asyncapi3-sqs.yaml: coverage: 4 channels and operations: 4 read, 0 not imported; 0 references unresolved",
        ],
        "{err}"
    );
}

/// SAM function events from the SAM specification's EventSource types:
/// `Schedule` (an EventBridge rule) and `ScheduleV2` (a Scheduler
/// schedule) invoke the function asynchronously, with their RetryPolicy
/// and DeadLetterConfig; `Api` and `HttpApi` are API Gateway routes that
/// call it. The overlay states the intent only; its comments give the
/// arithmetic (F017, F023, F024).
#[test]
fn sam_function_schedules_and_api_routes() {
    let out = import(&["cloudformation", "sam-function-events.yaml"]);
    insta::assert_snapshot!("cloudformation-sam-function-events", transcript(&out));
    let text = &out.0;
    assert!(
        text.contains("  refund-function:\n    kind: lambda-async  #"),
        "{text}"
    );
    assert!(text.contains("  refund-function-refund:\n    kind: service  # API Gateway method SAM creates for event Refund (Api)"), "{text}");
    assert!(text.contains("  refund-function-retry:\n    kind: service  # API Gateway route SAM creates for event Retry (HttpApi)"), "{text}");
    assert_eq!(
        check_overlaid("sam-function-events.yaml"),
        (
            vec![
                t("RH038", "refund-function", "refund-order"),
                t("RH040", "-", "refund-order")
            ],
            1
        )
    );
    let (h, _, _) = run(&[
        "horizon",
        "sam-function-events.yaml",
        "sam-function-events.overlay.yaml",
    ]);
    // 1 h (MaximumEventAgeInSeconds 3600) + 6 h (F024) = 7 h; x 1.1.
    assert!(
        h.contains(
            "refund-function (effect): horizon 7h, window none, minimum safe retention 7h 42m"
        ),
        "{h}"
    );
    assert!(
        h.contains(
            "async invocation keeps the event up to max_event_age 6h (lambda-async default, F024)"
        ),
        "{h}"
    );
}
