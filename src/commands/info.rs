//! Commands that read no manifest: `explain`, `rules`, `catalog`, `schema`,
//! `completions` and `man`.

use crate::cli::{
    CatalogArgs, CompletionsArgs, ExplainArgs, ManArgs, RulesArgs, SchemaArgs, TextFormat,
};
use crate::manual;
use replay_audit::diagnostics::echo;
use replay_audit::{catalog, engine, files, report, rules, schema};

use super::{Outcome, did_you_mean, not_found, out};

/// `explain CODE`: a rule's page.
pub fn explain(args: &ExplainArgs) -> Outcome {
    let code = &args.code;
    let Some(r) = rules::rule(code) else {
        let names = rules::RULES.iter().map(|r| r.code);
        let names = names.chain(rules::RULES.iter().map(|r| r.name));
        let fallback = || "`replay-audit rules` lists every rule".to_string();
        return Err(not_found("rule", code, names, fallback));
    };
    out(r.doc)?;
    Ok(0)
}

/// `rules`: every rule.
pub fn rules(args: &RulesArgs) -> Outcome {
    out(&report::rules_list(args.format == TextFormat::Json))?;
    Ok(0)
}

/// `catalog [KIND]`: the kinds, or one with its defaults and sources.
pub fn catalog(args: &CatalogArgs) -> Outcome {
    let json = args.format == TextFormat::Json;
    let Some(k) = &args.kind else {
        out(&report::catalog::list(json))?;
        return Ok(0);
    };
    let Some(kind) = catalog::catalog().kind(k) else {
        let ids = catalog::catalog().kinds.iter().map(|k| k.id.as_str());
        let fallback = || "`replay-audit catalog` lists the kinds".to_string();
        let help = did_you_mean(k, ids, fallback);
        let message = format!("no kind `{k}` in the catalog");
        return Err(engine::Error::usage(message, help));
    };
    out(&report::catalog::show(kind, json))?;
    Ok(0)
}

/// `schema [--policy]`: the JSON Schema of the manifest or of the policy.
pub fn schema(args: &SchemaArgs) -> Outcome {
    if args.policy {
        out(&replay_audit::policy::schema::render())?;
    } else {
        out(&schema::render())?;
    }
    Ok(0)
}

/// `completions SHELL`: the completion script.
pub fn completions(args: &CompletionsArgs) -> Outcome {
    out(&manual::completion::script(args.shell))?;
    Ok(0)
}

/// `man [COMMAND]` prints a page; `man --out-dir DIR` writes every page.
pub fn man(args: &ManArgs) -> Outcome {
    let (command, out_dir) = (args.command.as_deref(), args.out_dir.as_deref());
    let Some(dir) = out_dir else {
        let Some(page) = manual::man::page(command) else {
            let name = command.unwrap_or_default();
            let names = manual::man::command_names();
            let fallback = || "`replay-audit --help` lists the commands".to_string();
            return Err(not_found(
                "command",
                name,
                names.iter().map(String::as_str),
                fallback,
            ));
        };
        out(&page.text)?;
        return Ok(0);
    };
    // The folder is made as `mkdir -p` would; an existing file keeps it
    // from being made, and the write below says so.
    if let Err(e) = std::fs::create_dir_all(dir)
        && !dir.is_dir()
    {
        eprintln!(
            "error: cannot create the folder `{}`: {}\nhelp: give a folder that can be created, or an existing one",
            echo(&dir.display().to_string()),
            files::io_reason(&e)
        );
        return Ok(2);
    }
    for page in manual::man::pages() {
        let path = dir.join(&page.file);
        if let Err(e) = files::write_atomic(&path, page.text.as_bytes(), files::Mode::Replace) {
            eprintln!("{e}");
            return Ok(2);
        }
    }
    eprintln!(
        "wrote the man pages into {}",
        echo(&dir.display().to_string())
    );
    Ok(0)
}
