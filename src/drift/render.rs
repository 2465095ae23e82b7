//! `drift` in its three formats: a table for a terminal, Markdown for a
//! pull request or a ticket, JSON (cli-json.md). Every string read from
//! the inputs is made inert (table) or escaped (Markdown).

use serde::Serialize;

use super::{Difference, Drift, Side, Sides, Source};
use crate::diagnostics::{Location, SourceMap, echo};
use crate::diff::render::{JsonIntent, json_intent, markdown_intents, table_intents};
use crate::manifest::model::Field;
use crate::report::markdown::escape;
use crate::rules::Severity;

/// What every format shows besides the drift itself.
pub struct Context<'a> {
    /// The deployed side as named on the command line.
    pub deployed: &'a str,
    /// The policy line ([`crate::policy::Notes::policy_line`]).
    pub policy: Option<&'a str>,
    pub threshold: Severity,
}

/// Where a side's value comes from, in words: `FILE:LINE`, `default of
/// KIND (F003)`, `not set`.
fn source_text(s: &Side, map: &SourceMap) -> String {
    match &s.source {
        Source::At(loc) => format!("{}:{}", map.path(*loc), loc.line),
        Source::Default { kind, fact } => format!("default of {kind} ({fact})"),
        Source::Unset => String::new(),
    }
}

fn value_text(s: &Side) -> &str {
    s.value.as_deref().unwrap_or("(not set)")
}

/// The title of the components the export names but does not describe.
const NOT_EXPORTED: &str = "not in the export (a link names them; where the code describes one, the deployed side \
     is checked with the code's description: export it to compare it)";

/// The title of the code components whose name several deployed
/// components have.
const AMBIGUOUS: &str = "only in the code because several deployed resources have their name (give the code \
     component `resource: ARN` in the overlay)";

fn capital(title: &str) -> String {
    let mut c = title.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `ID: DEPLOYED-ID, DEPLOYED-ID` for each ambiguous code component.
fn ambiguous_lines(m: &super::Matching) -> Vec<String> {
    m.ambiguous
        .iter()
        .map(|(id, ds)| format!("{id}: {}", ds.join(", ")))
        .collect()
}

/// "5 matched (3 by name, 2 by id), 1 only in the code, 0 only
/// deployed, 3 values differ".
fn counts(sides: &Sides, d: &Drift) -> String {
    let mut by: Vec<(&str, usize)> = Vec::new();
    for p in &sides.matching.pairs {
        match by.iter_mut().find(|(w, _)| *w == p.how.word()) {
            Some((_, n)) => *n += 1,
            None => by.push((p.how.word(), 1)),
        }
    }
    let by: Vec<String> = by.iter().map(|(w, n)| format!("{n} by {w}")).collect();
    let not_exported = match sides.matching.not_exported.len() {
        0 => String::new(),
        n => format!(", {n} not in the export"),
    };
    format!(
        "{} matched ({}), {} only in the code, {} only deployed{not_exported}, {} values differ",
        sides.matching.pairs.len(),
        if by.is_empty() {
            "none".to_string()
        } else {
            by.join(", ")
        },
        sides.matching.only_code.len(),
        sides.matching.only_deployed.len(),
        d.differences.len()
    )
}

fn findings_summary(d: &Drift, c: &Context) -> String {
    let failing = d.diff.introduced().filter(|f| f.fails(c.threshold)).count();
    let introduced = d.diff.introduced().count();
    format!(
        "deployed side: {introduced} finding{} the code does not have ({failing} failing at {}), {} of the code's it does not have",
        if introduced == 1 { "" } else { "s" },
        c.threshold.name(),
        d.diff.resolved().count()
    )
}

/// `drift --format table`.
pub fn render_table(sides: &Sides, d: &Drift, c: &Context) -> String {
    let mut s = format!("drift of {} from the code\n", echo(c.deployed));
    s.push_str(&format!("{}\n", counts(sides, d)));
    for x in &d.differences {
        s.push_str(&format!("\n{} {}\n", echo(&x.component), echo(&x.field)));
        for (who, side, map) in [
            ("code", &x.code, &sides.code.sources),
            ("deployed", &x.deployed, &sides.deployed.sources),
        ] {
            let line = format!(
                "  {who:<9}{:<14} {}",
                value_text(side),
                source_text(side, map)
            );
            s.push_str(&format!("{}\n", echo(line.trim_end())));
        }
    }
    let m = &sides.matching;
    if !m.only_code.is_empty() {
        s.push_str("\nonly in the code:\n");
        for id in &m.only_code {
            s.push_str(&format!(
                "  {}\n",
                echo(&with_resource(id, resource_of(&sides.code, id)))
            ));
        }
    }
    if !m.ambiguous.is_empty() {
        s.push_str(&format!("\n{AMBIGUOUS}:\n"));
        for line in ambiguous_lines(m) {
            s.push_str(&format!("  {}\n", echo(&line)));
        }
    }
    if !m.only_deployed.is_empty() {
        s.push_str("\nonly deployed:\n");
        for (id, r) in &m.only_deployed {
            s.push_str(&format!("  {}\n", echo(&with_resource(id, r.as_deref()))));
        }
    }
    if !m.not_exported.is_empty() {
        s.push_str(&format!("\n{NOT_EXPORTED}:\n"));
        for (id, r) in &m.not_exported {
            s.push_str(&format!("  {}\n", echo(&with_resource(id, r.as_deref()))));
        }
    }
    if !sides.left_out.is_empty() {
        s.push_str("\nleft out of the deployed side (they name a component only the code has):\n");
        for l in &sides.left_out {
            s.push_str(&format!("  {}\n", echo(l)));
        }
    }
    s.push_str("\nwhat the drift does to the findings and horizons (code → deployed):\n");
    s.push_str(&table_intents(&d.diff));
    s.push_str(&format!("{}\n", findings_summary(d, c)));
    if let Some(p) = c.policy {
        s.push_str(&format!("{}\n", echo(p)));
    }
    s
}

fn resource_of<'m>(m: &'m crate::manifest::Manifest, id: &str) -> Option<&'m str> {
    m.component(id)
        .and_then(|c| c.text(Field::Resource))
        .map(|r| r.value.as_str())
}

fn with_resource(id: &str, r: Option<&str>) -> String {
    match r {
        Some(r) => format!("{id} ({r})"),
        None => id.to_string(),
    }
}

/// `drift --format markdown`: for a pull request or a ticket.
pub fn render_markdown(sides: &Sides, d: &Drift, c: &Context) -> String {
    let mut s = format!(
        "### replay-audit: drift of `{}` from the code\n\n{}; {}.\n",
        escape(c.deployed),
        counts(sides, d),
        findings_summary(d, c)
    );
    if !d.differences.is_empty() {
        s.push_str("\n| component | field | code | deployed |\n|---|---|---|---|\n");
        for x in &d.differences {
            let cell = |side: &Side, map: &SourceMap| match source_text(side, map) {
                at if at.is_empty() => escape(value_text(side)),
                at => format!("{} <sub>{}</sub>", escape(value_text(side)), escape(&at)),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                escape(&x.component),
                escape(&x.field),
                cell(&x.code, &sides.code.sources),
                cell(&x.deployed, &sides.deployed.sources)
            ));
        }
    }
    let m = &sides.matching;
    let list = |title: &str, items: Vec<String>| {
        if items.is_empty() {
            return String::new();
        }
        let lines: String = items.iter().map(|i| format!("- {}\n", escape(i))).collect();
        format!("\n**{title}**\n\n{lines}")
    };
    s.push_str(&list(
        "Only in the code",
        m.only_code
            .iter()
            .map(|id| with_resource(id, resource_of(&sides.code, id)))
            .collect(),
    ));
    s.push_str(&list(&capital(AMBIGUOUS), ambiguous_lines(m)));
    s.push_str(&list(
        "Only deployed",
        m.only_deployed
            .iter()
            .map(|(id, r)| with_resource(id, r.as_deref()))
            .collect(),
    ));
    s.push_str(&list(
        &capital(NOT_EXPORTED),
        m.not_exported
            .iter()
            .map(|(id, r)| with_resource(id, r.as_deref()))
            .collect(),
    ));
    s.push_str(&list(
        "Left out of the deployed side (they name a component only the code has)",
        sides.left_out.clone(),
    ));
    s.push_str(&markdown_intents(&d.diff));
    if let Some(p) = c.policy {
        s.push_str(&format!("\n<sub>{}</sub>\n", escape(p)));
    }
    s
}

#[derive(Serialize)]
struct JsonSide<'a> {
    value: Option<&'a str>,
    location: Option<Location>,
    default_of: Option<&'a str>,
    fact: Option<&'a str>,
}

fn json_side<'a>(s: &'a Side, map: &SourceMap) -> JsonSide<'a> {
    let (location, default_of, fact) = match &s.source {
        Source::At(loc) => (Some(map.location(*loc)), None, None),
        Source::Default { kind, fact } => (None, Some(kind.as_str()), Some(fact.as_str())),
        Source::Unset => (None, None, None),
    };
    JsonSide {
        value: s.value.as_deref(),
        location,
        default_of,
        fact,
    }
}

#[derive(Serialize)]
struct JsonDifference<'a> {
    field: &'a str,
    code: JsonSide<'a>,
    deployed: JsonSide<'a>,
}

#[derive(Serialize)]
struct JsonPair<'a> {
    component: &'a str,
    deployed_id: &'a str,
    resource: Option<&'a str>,
    matched_by: super::How,
    differences: Vec<JsonDifference<'a>>,
}

#[derive(Serialize)]
struct JsonOnly<'a> {
    component: &'a str,
    resource: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonAmbiguous<'a> {
    component: &'a str,
    deployed: &'a [String],
}

/// `drift --format json` (cli-json.md).
pub fn render_json(sides: &Sides, d: &Drift, c: &Context, policy_file: Option<&str>) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        version: u32,
        deployed: &'a str,
        policy: Option<&'a str>,
        matched: Vec<JsonPair<'a>>,
        only_code: Vec<JsonOnly<'a>>,
        only_deployed: Vec<JsonOnly<'a>>,
        not_exported: Vec<JsonOnly<'a>>,
        ambiguous: Vec<JsonAmbiguous<'a>>,
        left_out: &'a [String],
        intents: Vec<JsonIntent<'a>>,
        differences: usize,
        introduced: usize,
        resolved: usize,
        failing: usize,
    }
    let diff_context = crate::diff::Context {
        base: "code",
        policy: c.policy,
        threshold: c.threshold,
        base_sources: &sides.code.sources,
        head_sources: &sides.deployed.sources,
    };
    let of = |id: &str| -> Vec<&Difference> {
        d.differences.iter().filter(|x| x.component == id).collect()
    };
    let out = Out {
        version: 1,
        deployed: c.deployed,
        policy: policy_file,
        matched: sides
            .matching
            .pairs
            .iter()
            .map(|p| JsonPair {
                component: &p.code,
                deployed_id: &p.deployed,
                resource: p.resource.as_deref(),
                matched_by: p.how,
                differences: of(&p.code)
                    .into_iter()
                    .map(|x| JsonDifference {
                        field: &x.field,
                        code: json_side(&x.code, &sides.code.sources),
                        deployed: json_side(&x.deployed, &sides.deployed.sources),
                    })
                    .collect(),
            })
            .collect(),
        only_code: sides
            .matching
            .only_code
            .iter()
            .map(|id| JsonOnly {
                component: id,
                resource: resource_of(&sides.code, id),
            })
            .collect(),
        only_deployed: sides
            .matching
            .only_deployed
            .iter()
            .map(|(id, r)| JsonOnly {
                component: id,
                resource: r.as_deref(),
            })
            .collect(),
        not_exported: sides
            .matching
            .not_exported
            .iter()
            .map(|(id, r)| JsonOnly {
                component: id,
                resource: r.as_deref(),
            })
            .collect(),
        ambiguous: sides
            .matching
            .ambiguous
            .iter()
            .map(|(id, ds)| JsonAmbiguous {
                component: id,
                deployed: ds,
            })
            .collect(),
        left_out: &sides.left_out,
        intents: d
            .diff
            .intents
            .iter()
            .map(|(id, i)| json_intent(id, i, &diff_context))
            .collect(),
        differences: d.differences.len(),
        introduced: d.diff.introduced().count(),
        resolved: d.diff.resolved().count(),
        failing: d.diff.introduced().filter(|f| f.fails(c.threshold)).count(),
    };
    serde_json::to_string_pretty(&out).expect("serialises") + "\n"
}
