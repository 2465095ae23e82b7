//! SNS topics and their subscriptions: `list-subscriptions-by-topic` (who
//! the topic delivers to) and `get-subscription-attributes` (a
//! subscription's dead-letter queue, filter policy and raw delivery).

use super::ctx::{Ctx, Decl, arn_of, json_object, text};
use super::{Item, Node, Shape};
use crate::diagnostics::Diagnostic;
use crate::import::{F, V, Value};

const TY: &str = "AWS::SNS::Topic";

fn kind_of(arn_or_name: &str) -> &'static str {
    if arn_or_name.ends_with(".fifo") {
        "sns-fifo"
    } else {
        "sns-standard"
    }
}

fn subscriptions<'a>(item: &'a Item) -> Result<&'a [Node], Diagnostic> {
    let Some(n) = item.node.get("Subscriptions") else {
        return Ok(&[]);
    };
    match &n.value {
        Value::Seq(items) => Ok(items),
        _ => Err(n.error_at(
            format!(
                "`{}.Subscriptions` must be a list, found {}",
                item.base,
                n.value.type_name()
            ),
            "give the JSON `aws sns list-subscriptions-by-topic` printed, unchanged",
        )),
    }
}

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::SnsSubscriptions => {
            let subs = subscriptions(item)?;
            for (i, s) in subs.iter().enumerate() {
                if let Some(t) = s.get("TopicArn") {
                    let p = format!("{}.Subscriptions[{i}].TopicArn", item.base);
                    let arn = text(t, &p)?;
                    decls.extend(Decl::of_arn(&arn, t, &p, kind_of(&arn), TY, true));
                }
            }
            if subs.is_empty()
                && let Some(name) = item.hint
            {
                decls.push(Decl::named(
                    "sns",
                    name,
                    kind_of(name),
                    TY,
                    &item.base,
                    item.node,
                ));
            }
        }
        _ => {
            let keys: &[&str] = if item.shape == Shape::SnsTopic {
                &["TopicArn"]
            } else {
                &["Attributes", "TopicArn"]
            };
            if let Some((arn, n, p)) = arn_of(item, keys) {
                decls.extend(Decl::of_arn(&arn, &n, &p, kind_of(&arn), TY, true));
            }
        }
    }
    Ok(())
}

pub(super) fn read(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    match item.shape {
        Shape::SnsSubscriptions => {
            for (i, s) in subscriptions(item)?.iter().enumerate() {
                subscription(cx, s, &format!("{}.Subscriptions[{i}]", item.base))?;
            }
        }
        Shape::SnsSubscriptionAttributes => {
            if let Some(a) = item.node.get("Attributes") {
                let base = format!("{}.Attributes", item.base);
                if let Some(topic) = subscription(cx, a, &base)? {
                    attributes(cx, &topic, a, &base)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// One subscription: a `delivers_to` link on its topic (once per endpoint);
/// the topic's id.
fn subscription(cx: &mut Ctx, s: &Node, base: &str) -> Result<Option<String>, Diagnostic> {
    let (Some(t), Some(e)) = (s.get("TopicArn"), s.get("Endpoint")) else {
        return Ok(None);
    };
    let tp = format!("{base}.TopicArn");
    let Some(topic) = cx.id(&text(t, &tp)?) else {
        return Ok(None);
    };
    if let Some(a) = s.get("SubscriptionArn") {
        let arn = text(a, &format!("{base}.SubscriptionArn"))?;
        if !arn.starts_with("arn:") {
            let c = cx.src(&format!("{base}.SubscriptionArn"), a);
            cx.out.note(
                &topic,
                format!("a subscription is {arn} ({c}): it receives nothing until confirmed"),
            );
            return Ok(Some(topic));
        }
        cx.unit(&arn);
    }
    let ep = format!("{base}.Endpoint");
    text(e, &ep)?;
    let Some(to) = cx.target(&topic, e, &ep, "delivers_to") else {
        return Ok(Some(topic));
    };
    let linked = cx.out.comp(&topic).is_some_and(|c| {
        c.fields.iter().any(|f| {
            f.key == "delivers_to"
                && matches!(&f.val, V::Items(items) if items.iter().any(|l| l.iter().any(|x| x.key == "to" && matches!(&x.val, V::S(v) if *v == to))))
        })
    });
    if !linked {
        let c = cx.src(&ep, e);
        cx.out
            .push_link(&topic, "delivers_to", vec![F::new("to", V::S(to), Some(c))]);
    }
    Ok(Some(topic))
}

/// A subscription's attributes: its dead-letter queue (on the topic, as
/// the other importers write it), filter policy and raw delivery.
fn attributes(cx: &mut Ctx, topic: &str, a: &Node, base: &str) -> Result<(), Diagnostic> {
    if let Some(n) = a.get("RedrivePolicy") {
        let p = format!("{base}.RedrivePolicy");
        let rp = json_object(n, &p)?;
        if let Some(t) = rp.get("deadLetterTargetArn") {
            let tp = format!("{p}.deadLetterTargetArn");
            super::lambda::dead_letter(cx, topic, t, &tp)?;
        }
    }
    let endpoint = a
        .get("Endpoint")
        .and_then(Node::str)
        .unwrap_or("?")
        .to_string();
    if let Some(n) = a.get("FilterPolicy") {
        let p = format!("{base}.FilterPolicy");
        text(n, &p)?;
        let c = cx.src(&p, n);
        cx.out.note(topic, format!("the subscription of `{endpoint}` has a FilterPolicy ({c}): only the messages it matches are delivered there"));
    }
    if let Some(n) = a.get("RawMessageDelivery") {
        let p = format!("{base}.RawMessageDelivery");
        if super::ctx::flag(n, &p)? {
            let c = cx.src(&p, n);
            cx.out.note(topic, format!("raw message delivery to `{endpoint}` ({c}): the subscriber sees the message body without the SNS envelope, so not its MessageId"));
        }
    }
    Ok(())
}
