//! Commands that read no manifest: `explain`, `rules`, `catalog`, `schema`,
//! `completions` and `man`.

use clap::CommandFactory;
use replay_audit::cli::{Cli, Command, CompletionShell, TextFormat};
use replay_audit::{catalog, engine, report, rules, schema};

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
        Command::Schema => out(&schema::render())?,
        Command::Completions { shell } => {
            let shell = match shell {
                CompletionShell::Bash => clap_complete::Shell::Bash,
                CompletionShell::Zsh => clap_complete::Shell::Zsh,
                CompletionShell::Fish => clap_complete::Shell::Fish,
            };
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "replay-audit", &mut buf);
            out(&String::from_utf8_lossy(&buf))?;
        }
        Command::Man => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
            out(&String::from_utf8_lossy(&buf))?;
        }
        _ => unreachable!("dispatched on a command that reads no manifest"),
    }
    Ok(0)
}
