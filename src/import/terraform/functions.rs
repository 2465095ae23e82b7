//! Lambda functions as the other resources name and invoke them.
//!
//! A function is often named through an alias (`aws_lambda_alias.live.arn`,
//! or a qualified ARN): the alias stands for the function it points at, so
//! a mapping, target or notification naming it links to the function.
//!
//! How a function is invoked decides its kind, as the CloudFormation
//! importer decides it ([`invocation`]): polled by an event source mapping,
//! `lambda-event-source`; invoked asynchronously (an SNS subscription, an
//! EventBridge rule or Scheduler schedule, an S3 notification, or with an
//! `aws_lambda_function_event_invoke_config`), `lambda-async`. The readers
//! record each invocation while they link, and [`resolve`] sets the kinds
//! once every resource is read, so the result does not depend on the order
//! of the resources.

use std::cell::RefCell;

use super::{Ctx, Res};
use crate::import::Out;
use crate::import::cloudformation::invocation;

pub(super) use invocation::Invocations;

/// The function alias `j` points at (its `function_name`: a name, an ARN
/// or a reference), or `j` itself when it is no alias or its function is
/// not read here. One step: an alias cannot point at an alias.
pub(super) fn through_alias(cx: &Ctx, j: usize) -> usize {
    let a: &Res = &cx.res[j];
    if a.ty != "aws_lambda_alias" {
        return j;
    }
    cx.ix
        .find(&a.address, "function_name", a.values.get("function_name"))
        .filter(|&f| cx.res[f].ty != "aws_lambda_alias")
        .unwrap_or(j)
}

/// How the resources read so far invoke each function, by component id.
pub(super) type Invoked = RefCell<Invocations>;

impl Ctx<'_> {
    /// Records that an event source mapping polls for function `id`.
    pub(super) fn mapped(&self, id: &str) {
        invocation::mapped(&mut self.inv.borrow_mut(), id);
    }

    /// Records that function `id` is invoked asynchronously.
    pub(super) fn asynchronous(&self, id: &str) {
        invocation::asynchronous(&mut self.inv.borrow_mut(), id);
    }

    /// Records that function `id` has asynchronous invocation settings.
    pub(super) fn async_config(&self, id: &str) {
        invocation::async_config(&mut self.inv.borrow_mut(), id);
    }
}

/// Sets the kind of every function from how it is invoked (SNS topics'
/// and EventBridge rules' targets included), and moves the asynchronous
/// settings of a function only a mapping invokes into notes.
pub(super) fn resolve(out: &mut Out, inv: Invoked) {
    invocation::resolve(out, inv.into_inner());
}
