//! Commands that read no manifest: `explain`, `rules`, `catalog`, `schema`,
//! `completions` and `man`.

use std::path::Path;

use crate::cli::{Cli, Command, TextFormat};
use crate::manual;
use replay_audit::diagnostics::echo;
use replay_audit::{catalog, engine, files, report, rules, schema};

use super::{did_you_mean, not_found, out};

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Explain { code } => {
            let Some(r) = rules::rule(code) else {
                let names = rules::RULES.iter().map(|r| r.code);
                let names = names.chain(rules::RULES.iter().map(|r| r.name));
                let fallback = || "`replay-audit rules` lists every rule".to_string();
                return Err(not_found("rule", code, names, fallback).into());
            };
            out(r.doc)?;
        }
        Command::Rules { format } => out(&report::rules_list(*format == TextFormat::Json))?,
        Command::Catalog { kind, format } => {
            let json = *format == TextFormat::Json;
            match kind {
                None => out(&report::catalog::list(json))?,
                Some(k) => {
                    let Some(kind) = catalog::catalog().kind(k) else {
                        let ids = catalog::catalog().kinds.iter().map(|k| k.id.as_str());
                        let fallback = || "`replay-audit catalog` lists the kinds".to_string();
                        let help = did_you_mean(k, ids, fallback);
                        let message = format!("no kind `{k}` in the catalog");
                        return Err(engine::Error::usage(message, help).into());
                    };
                    out(&report::catalog::show(kind, json))?
                }
            }
        }
        Command::Schema { policy: false } => out(&schema::render())?,
        Command::Schema { policy: true } => out(&replay_audit::policy::schema::render())?,
        Command::Completions { shell } => out(&manual::completion::script(*shell))?,
        Command::Man { command, out_dir } => return man(command.as_deref(), out_dir.as_deref()),
        _ => unreachable!("dispatched on a command that reads no manifest"),
    }
    Ok(0)
}

/// `man [COMMAND]` prints a page; `man --out-dir DIR` writes every page.
fn man(command: Option<&str>, out_dir: Option<&Path>) -> anyhow::Result<u8> {
    let Some(dir) = out_dir else {
        let Some(page) = manual::man::page(command) else {
            let name = command.unwrap_or_default();
            let names = manual::man::command_names();
            let fallback = || "`replay-audit --help` lists the commands".to_string();
            return Err(
                not_found("command", name, names.iter().map(String::as_str), fallback).into(),
            );
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
