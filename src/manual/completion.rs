//! Shell completion scripts from clap_complete, with the bash script
//! repaired: for a binary whose name has a hyphen, clap_complete 4.6 names
//! the states of the subcommands `replay__subcmd__audit__subcmd__check` in
//! the `case` that completes them but sets `cmd` to
//! `replay__audit__subcmd__check`, so nothing after the subcommand
//! completes (`check --format <Tab>` lists files). [`script`] renames the
//! `case` labels to the names `cmd` takes.

use clap::CommandFactory;
use clap_complete::Shell;

use super::BIN;
use crate::cli::{Cli, CompletionShell};

/// The completion script for `shell`.
pub fn script(shell: CompletionShell) -> String {
    let shell = match shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), BIN, &mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    if shell == Shell::Bash {
        repair_bash(&text)
    } else {
        text
    }
}

/// The state names of the `case` labels made the same as the values the
/// loop assigns to `cmd` (`replay__audit`, `replay__audit__subcmd__check`).
fn repair_bash(text: &str) -> String {
    let assigned = BIN.replace('-', "__");
    let mangled = BIN.replace('-', "__subcmd__");
    let labels = format!("        {mangled}__");
    let fixed = format!("        {assigned}__");
    text.lines()
        .map(|l| {
            let l = match l.strip_prefix(&labels) {
                Some(rest) if rest.ends_with(')') => format!("{fixed}{rest}"),
                _ => l.to_string(),
            };
            l + "\n"
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_case_labels_name_the_states_cmd_takes() {
        let s = script(CompletionShell::Bash);
        assert!(s.contains("        replay__audit__subcmd__check)\n"), "{s}");
        assert!(
            !s.contains("replay__subcmd__audit"),
            "a label is still mangled"
        );
        assert!(s.contains("cmd=\"replay__audit__subcmd__check\""));
    }
}
