//! `export-aws`: prints, never runs, a POSIX sh script of read-only AWS
//! CLI calls that save what `import aws-export` reads, one file per output
//! under the naming convention the importer reads names from. The tool
//! calls no AWS API and holds no credentials: the user runs the script
//! with theirs. Every value given is checked against the service's naming
//! rule and single-quoted, so nothing in it is run by the shell.

use crate::cli::ExportAwsArgs as ExportAws;
use replay_audit::diagnostics::echo;
use replay_audit::engine;
use replay_audit::import::aws_export::MARKER;

use super::{Outcome, out, sh_quoted};

/// The Config resource types the importer reads.
const CONFIG_TYPES: [&str; 9] = [
    "AWS::SQS::Queue",
    "AWS::SNS::Topic",
    "AWS::Lambda::Function",
    "AWS::DynamoDB::Table",
    "AWS::Events::Rule",
    "AWS::Kinesis::Stream",
    "AWS::StepFunctions::StateMachine",
    "AWS::Pipes::Pipe",
    "AWS::Scheduler::Schedule",
];

pub fn run(a: &ExportAws) -> Outcome {
    out(&script(a)?)?;
    Ok(0)
}

/// A name of `min..=max` characters of `[A-Za-z0-9]` and `extra`.
fn name_ok(s: &str, min: usize, max: usize, extra: &str) -> bool {
    (min..=max).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// `value` of option `opt` as a valid name (`ok`), else a usage error naming the rule.
fn require_name(opt: &str, value: &str, ok: bool, rule: &str) -> Result<(), engine::Error> {
    if ok {
        return Ok(());
    }
    Err(engine::Error::usage(
        echo(&format!("`{opt} {value}` is not a valid name: {rule}")),
        format!("give {opt} as the AWS console shows it ({rule})"),
    ))
}

/// The name an ARN of `service` and resource prefix `kind` ends with.
fn arn_name<'a>(arn: &'a str, service: &str, kind: &str) -> Option<&'a str> {
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    match parts.as_slice() {
        ["arn", _, s, _, _, rest] if *s == service => rest.strip_prefix(kind),
        _ => None,
    }
}

/// The script.
fn script(a: &ExportAws) -> Result<String, engine::Error> {
    let named = !(a.queues.is_empty()
        && a.functions.is_empty()
        && a.rules.is_empty()
        && a.tables.is_empty()
        && a.topics.is_empty()
        && a.state_machines.is_empty()
        && a.pipes.is_empty()
        && a.schedules.is_empty()
        && a.streams.is_empty());
    if !named && !a.config_query {
        return Err(engine::Error::usage(
            "`export-aws` needs resources to export",
            "name them (--queue, --function, --rule, --table, --topic, --state-machine, --pipe, --schedule, --stream), or give --config-query",
        ));
    }
    if let Some(r) = &a.region {
        let ok =
            r.split('-').count() >= 3 && name_ok(r, 9, 32, "-") && r == &r.to_ascii_lowercase();
        require_name("--region", r, ok, "a Region code such as eu-west-1")?;
    }
    if a.out_dir.chars().any(char::is_control) || a.out_dir.is_empty() {
        return Err(engine::Error::usage(
            echo(&format!("`--out-dir {}` is not a folder name", a.out_dir)),
            "give a folder name without control characters",
        ));
    }
    let mut s = String::new();
    s.push_str("#!/bin/sh\n");
    s.push_str("# Made by `replay-audit export-aws`: read-only AWS CLI calls (describe, get, list, select)\n");
    s.push_str("# that save the JSON `replay-audit import aws-export DIR` and `replay-audit check DIR` read.\n");
    s.push_str("# replay-audit calls no AWS API and holds no credentials: run this with yours.\n");
    s.push_str("set -eu\n");
    s.push_str(&format!("out={}\n", sh_quoted(&a.out_dir)));
    let mut global = String::new();
    if let Some(r) = &a.region {
        global.push_str(&format!(" --region {}", sh_quoted(r)));
    }
    if let Some(p) = &a.profile {
        global.push_str(&format!(" --profile {}", sh_quoted(p)));
    }
    s.push_str(&format!("a() {{ aws{global} \"$@\"; }}\n"));
    s.push_str("mkdir -p \"$out\"\n");
    s.push_str(&format!(
        "printf '%s\\n' 'AWS CLI outputs saved for replay-audit (import aws-export, check).' > \"$out/{MARKER}\"\n"
    ));
    queues(a, &mut s)?;
    functions(a, &mut s)?;
    rules(a, &mut s)?;
    tables(a, &mut s)?;
    topics(a, &mut s)?;
    others(a, &mut s)?;
    if a.config_query {
        config(a, &mut s)?;
    }
    s.push_str(
        "echo \"saved in $out: run replay-audit check \\\"$out\\\" with your manifests\" >&2\n",
    );
    Ok(s)
}

/// `> "$out/FILE"` for the file of `prefix` and `name`.
fn to(prefix: &str, name: &str) -> String {
    format!("> \"$out/\"{}", sh_quoted(&format!("{prefix}.{name}.json")))
}

fn queues(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    const RULE: &str = "1 to 80 letters, digits, `-` and `_`, `.fifo` at the end of a FIFO queue";
    for q in &a.queues {
        let name = q.rsplit('/').next().unwrap_or(q);
        let bare = name.strip_suffix(".fifo").unwrap_or(name);
        let url_ok = !q.contains('/')
            || (q.starts_with("https://")
                && !q.contains(char::is_whitespace)
                && !q.contains(['\'', '"', '`', '$', '\\']));
        require_name("--queue", q, name_ok(bare, 1, 80, "-_") && url_ok, RULE)?;
        let url = if q.contains('/') {
            sh_quoted(q)
        } else {
            format!(
                "\"$(a sqs get-queue-url --queue-name {} --query QueueUrl --output text)\"",
                sh_quoted(name)
            )
        };
        s.push_str(&format!(
            "a sqs get-queue-attributes --queue-url {url} --attribute-names All --output json {}\n",
            to("sqs", name)
        ));
    }
    Ok(())
}

fn functions(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    const RULE: &str = "1 to 64 letters, digits, `-` and `_`";
    for f in &a.functions {
        require_name("--function", f, name_ok(f, 1, 64, "-_"), RULE)?;
        let n = sh_quoted(f);
        s.push_str(&format!(
            "a lambda get-function-configuration --function-name {n} --output json {}\n",
            to("lambda-function", f)
        ));
        s.push_str(&format!(
            "a lambda list-event-source-mappings --function-name {n} --output json {}\n",
            to("lambda-mappings", f)
        ));
        let file = format!(
            "\"$out/\"{}",
            sh_quoted(&format!("lambda-invoke-config.{f}.json"))
        );
        s.push_str(&format!(
            "a lambda get-function-event-invoke-config --function-name {n} --output json > {file} 2>/dev/null || {{ rm -f {file}; echo {} >&2; }}\n",
            sh_quoted(&format!("note: {f} has no asynchronous invocation config (the defaults apply)"))
        ));
    }
    Ok(())
}

fn rules(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    let bus = match &a.event_bus {
        Some(b) => {
            let ok = name_ok(b, 1, 256, "/.-_")
                || arn_name(b, "events", "event-bus/").is_some_and(|n| name_ok(n, 1, 256, "/.-_"));
            require_name(
                "--event-bus",
                b,
                ok,
                "1 to 256 letters, digits, `/`, `.`, `-` and `_`, or the bus ARN",
            )?;
            format!(" --event-bus-name {}", sh_quoted(b))
        }
        None => String::new(),
    };
    for r in &a.rules {
        require_name(
            "--rule",
            r,
            name_ok(r, 1, 64, ".-_"),
            "1 to 64 letters, digits, `.`, `-` and `_`",
        )?;
        let query = sh_quoted(&format!("{{Rules: Rules[?Name=='{r}']}}"));
        s.push_str(&format!(
            "a events list-rules{bus} --name-prefix {} --query {query} --output json {}\n",
            sh_quoted(r),
            to("events-rules", r)
        ));
        s.push_str(&format!(
            "a events list-targets-by-rule{bus} --rule {} --output json {}\n",
            sh_quoted(r),
            to("events-targets", r)
        ));
    }
    Ok(())
}

fn tables(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    for t in &a.tables {
        require_name(
            "--table",
            t,
            name_ok(t, 3, 255, "_.-"),
            "3 to 255 letters, digits, `_`, `.` and `-`",
        )?;
        let n = sh_quoted(t);
        s.push_str(&format!(
            "a dynamodb describe-table --table-name {n} --output json {}\n",
            to("dynamodb-table", t)
        ));
        s.push_str(&format!(
            "a dynamodb describe-time-to-live --table-name {n} --output json {}\n",
            to("dynamodb-ttl", t)
        ));
        s.push_str(&format!(
            "a dynamodb describe-continuous-backups --table-name {n} --output json {}\n",
            to("dynamodb-backups", t)
        ));
    }
    Ok(())
}

fn topics(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    const RULE: &str = "an SNS topic ARN (arn:aws:sns:REGION:ACCOUNT:NAME), its name 1 to 256 letters, digits, `-` and `_`";
    for t in &a.topics {
        let name = arn_name(t, "sns", "").unwrap_or("");
        let bare = name.strip_suffix(".fifo").unwrap_or(name);
        let ok = name_ok(bare, 1, 256, "-_")
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || ":-_.".contains(c));
        require_name("--topic", t, ok, RULE)?;
        let arn = sh_quoted(t);
        s.push_str(&format!(
            "a sns list-subscriptions-by-topic --topic-arn {arn} --output json {}\n",
            to("sns-subscriptions", name)
        ));
        s.push_str("n=0\n");
        s.push_str(&format!("for s in $(a sns list-subscriptions-by-topic --topic-arn {arn} --query 'Subscriptions[].SubscriptionArn' --output text); do\n"));
        s.push_str(&format!(
            "  case \"$s\" in arn:*) n=$((n + 1)); a sns get-subscription-attributes --subscription-arn \"$s\" --output json > \"$out/\"{}\"$n.json\" ;; esac\ndone\n",
            sh_quoted(&format!("sns-subscription.{name}."))
        ));
    }
    Ok(())
}

fn others(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    for m in &a.state_machines {
        let name = arn_name(m, "states", "stateMachine:").unwrap_or("");
        let ok = name_ok(name, 1, 80, "-_")
            && m.chars()
                .all(|c| c.is_ascii_alphanumeric() || ":-_.".contains(c));
        require_name(
            "--state-machine",
            m,
            ok,
            "a state machine ARN (arn:aws:states:REGION:ACCOUNT:stateMachine:NAME), its name 1 to 80 letters, digits, `-` and `_`",
        )?;
        s.push_str(&format!(
            "a stepfunctions describe-state-machine --state-machine-arn {} --output json {}\n",
            sh_quoted(m),
            to("states", name)
        ));
    }
    for p in &a.pipes {
        require_name(
            "--pipe",
            p,
            name_ok(p, 1, 64, ".-_"),
            "1 to 64 letters, digits, `.`, `-` and `_`",
        )?;
        s.push_str(&format!(
            "a pipes describe-pipe --name {} --output json {}\n",
            sh_quoted(p),
            to("pipes", p)
        ));
    }
    let group = match &a.group {
        Some(g) => {
            require_name(
                "--group",
                g,
                name_ok(g, 1, 64, ".-_"),
                "1 to 64 letters, digits, `.`, `-` and `_`",
            )?;
            format!(" --group-name {}", sh_quoted(g))
        }
        None => String::new(),
    };
    for n in &a.schedules {
        require_name(
            "--schedule",
            n,
            name_ok(n, 1, 64, ".-_"),
            "1 to 64 letters, digits, `.`, `-` and `_`",
        )?;
        s.push_str(&format!(
            "a scheduler get-schedule --name {}{group} --output json {}\n",
            sh_quoted(n),
            to("scheduler", n)
        ));
    }
    for k in &a.streams {
        require_name(
            "--stream",
            k,
            name_ok(k, 1, 128, "_.-"),
            "1 to 128 letters, digits, `_`, `.` and `-`",
        )?;
        s.push_str(&format!(
            "a kinesis describe-stream-summary --stream-name {} --output json {}\n",
            sh_quoted(k),
            to("kinesis", k)
        ));
    }
    Ok(())
}

/// The AWS Config advanced query over the resource types the importer reads.
fn config(a: &ExportAws, s: &mut String) -> Result<(), engine::Error> {
    let types: Vec<String> = CONFIG_TYPES.iter().map(|t| format!("'{t}'")).collect();
    let expr = format!(
        "SELECT resourceType, arn, awsRegion, accountId, resourceName, configuration, supplementaryConfiguration WHERE resourceType IN ({})",
        types.join(", ")
    );
    let call = match &a.aggregator {
        Some(g) => {
            require_name(
                "--aggregator",
                g,
                name_ok(g, 1, 256, "-_"),
                "1 to 256 letters, digits, `-` and `_`",
            )?;
            format!(
                "select-aggregate-resource-config --configuration-aggregator-name {}",
                sh_quoted(g)
            )
        }
        None => "select-resource-config".to_string(),
    };
    s.push_str(&format!(
        "a configservice {call} --expression {} --output json > \"$out/config.json\"\n",
        sh_quoted(&expr)
    ));
    Ok(())
}
