//! `import FORMAT FILE`: a commented manifest skeleton from a template, a
//! plan or an AsyncAPI document.

use replay_audit::cli::{Cli, Command, ImportFormat};
use replay_audit::diagnostics::{a, echo};
use replay_audit::engine;
use replay_audit::import::{self, Format};

use super::{limits, out};

pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    let Command::Import {
        format,
        file,
        parameters,
    } = &cli.command
    else {
        unreachable!("dispatched on Import")
    };
    let limits = limits(cli);
    let params = import::parse_params(parameters)
        .map_err(|e| engine::Error::usage(e, "write --parameter Name=value"))?;
    let format = match format {
        ImportFormat::Cloudformation => Format::CloudFormation,
        ImportFormat::Terraform => Format::Terraform,
        ImportFormat::Asyncapi => Format::AsyncApi,
    };
    let text = import::read_file(file, &limits).map_err(engine::Error::from)?;
    let name = file.display().to_string();
    if let Some(found) = import::detect(&text, &limits).filter(|f| *f != format) {
        return Err(engine::Error::usage(
            echo(&format!(
                "`{name}` is {}, not {}",
                a(found.name()),
                a(format.name())
            )),
            echo(&format!(
                "run `replay-audit import {} {name}`",
                command(found)
            )),
        )
        .into());
    }
    let imported =
        import::import_text(format, &name, &text, &params, &limits).map_err(engine::Error::from)?;
    for u in &imported.unsupported {
        eprintln!("warning: not imported: {}", echo(u));
    }
    out(&imported.text)?;
    Ok(0)
}

/// The `import` argument that reads `format`.
fn command(format: Format) -> &'static str {
    match format {
        Format::CloudFormation => "cloudformation",
        Format::Terraform => "terraform",
        Format::AsyncApi => "asyncapi",
    }
}
