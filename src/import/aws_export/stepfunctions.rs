//! Step Functions state machines (`describe-state-machine`): the type
//! (STANDARD or EXPRESS) sets the kind, and the definition (a JSON string)
//! is read by the CloudFormation importer's reading of definitions, each
//! task's target found by the name its ARN ends with.

use super::Item;
use super::ctx::{Ctx, Decl, arn_of, get, relocate, text};
use crate::diagnostics::Diagnostic;

const TY: &str = "AWS::StepFunctions::StateMachine";

fn kind(item: &Item) -> Result<&'static str, Diagnostic> {
    let Some(t) = get(item.node, "type").or_else(|| get(item.node, "StateMachineType")) else {
        return Ok("step-functions-standard");
    };
    let v = text(t, &format!("{}.type", item.base))?;
    Ok(if v == "EXPRESS" {
        "step-functions-express-async"
    } else {
        "step-functions-standard"
    })
}

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    let kind = kind(item)?;
    if let Some((arn, n, p)) = arn_of(item, &["stateMachineArn"]) {
        decls.extend(Decl::of_arn(&arn, &n, &p, kind, TY, true));
    }
    Ok(())
}

pub(super) fn read(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some((arn, _, _)) = arn_of(item, &["stateMachineArn"]) else {
        return Ok(());
    };
    let Some(id) = cx.id(&arn) else { return Ok(()) };
    if kind(item)? == "step-functions-express-async" {
        cx.out.note(&id, "TODO: an EXPRESS workflow started synchronously is `step-functions-express-sync`: the export cannot tell how it is started".into());
    }
    let Some(d) = get(item.node, "definition") else {
        cx.out.unresolved(
            &id,
            "TODO: the export holds no definition: retries not imported".into(),
        );
        return Ok(());
    };
    let p = format!("{}.definition", item.base);
    let def_text = text(d, &p)?;
    let def = match serde_json::from_str::<serde_json::Value>(&def_text) {
        Ok(j) => {
            let mut n = crate::import::tree::from_json(j, d.loc.file);
            relocate(&mut n, d.loc);
            n
        }
        Err(e) => {
            return Err(d.error_at(
                format!("`{p}` is not a JSON state machine definition: {e}"),
                "give the JSON `aws stepfunctions describe-state-machine` printed, unchanged",
            ));
        }
    };
    let named = cx.named.clone();
    crate::import::cloudformation::deployed_state_machine(&mut cx.out, &id, &def, &p, &named);
    Ok(())
}
