//! ARNs: the service, Region, account and name of a resource.

/// The parts of an ARN (`arn:partition:service:region:account:resource`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arn {
    pub service: String,
    pub region: String,
    pub account: String,
    /// The resource's name: a queue's, a function's (without a version
    /// qualifier), a table's, a rule's (without its bus), ...
    pub name: String,
    /// For a DynamoDB stream ARN (`table/T/stream/...`), the table.
    pub stream_of: Option<String>,
}

impl Arn {
    /// The ARN without a Lambda version qualifier (`:$LATEST`, `:prod`),
    /// the key a resource is found by.
    pub fn key(text: &str) -> String {
        match parse(text) {
            Some(a) if a.service == "lambda" => {
                let parts: Vec<&str> = text.splitn(8, ':').collect();
                parts[..parts.len().min(7)].join(":")
            }
            _ => text.to_string(),
        }
    }
}

/// The parts of `text`, if it is an ARN.
pub(crate) fn parse(text: &str) -> Option<Arn> {
    let rest = text.strip_prefix("arn:")?;
    let parts: Vec<&str> = rest.splitn(5, ':').collect();
    let [_, service, region, account, resource] = parts.as_slice() else {
        return None;
    };
    let mut stream_of = None;
    let name = match *service {
        "lambda" => resource.strip_prefix("function:")?.split(':').next()?,
        "dynamodb" => {
            let table = resource.strip_prefix("table/")?;
            let mut seg = table.split('/');
            let name = seg.next()?;
            if seg.next() == Some("stream") {
                stream_of = Some(name.to_string());
            }
            name
        }
        "states" => resource.strip_prefix("stateMachine:")?.split(':').next()?,
        _ => resource.rsplit(['/', ':']).next()?,
    };
    if name.is_empty() {
        return None;
    }
    Some(Arn {
        service: service.to_string(),
        region: region.to_string(),
        account: account.to_string(),
        name: name.to_string(),
        stream_of,
    })
}

/// The name an SQS queue URL (`https://sqs.REGION.amazonaws.com/ACCOUNT/NAME`)
/// ends with, with its Region and account.
pub(super) fn queue_url(text: &str) -> Option<Arn> {
    let rest = text.strip_prefix("https://")?;
    let mut seg = rest.split('/');
    let host = seg.next()?;
    let account = seg.next()?;
    let name = seg.next()?;
    let region = host.strip_prefix("sqs.")?.split('.').next()?;
    Some(Arn {
        service: "sqs".into(),
        region: region.into(),
        account: account.into(),
        name: name.into(),
        stream_of: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_give_their_parts() {
        let a = parse("arn:aws:lambda:eu-west-1:111122223333:function:pay:prod").unwrap();
        assert_eq!(
            (a.service.as_str(), a.region.as_str(), a.name.as_str()),
            ("lambda", "eu-west-1", "pay")
        );
        assert_eq!(
            Arn::key("arn:aws:lambda:eu-west-1:111122223333:function:pay:prod"),
            "arn:aws:lambda:eu-west-1:111122223333:function:pay"
        );
        let s = parse("arn:aws:dynamodb:us-east-1:1:table/orders/stream/2024-01-01T00:00:00.000")
            .unwrap();
        assert_eq!(
            (s.name.as_str(), s.stream_of.as_deref()),
            ("orders", Some("orders"))
        );
        assert_eq!(
            parse("arn:aws:events:us-east-1:1:rule/bus/r").unwrap().name,
            "r"
        );
        assert_eq!(
            parse("arn:aws:states:us-east-1:1:stateMachine:flow")
                .unwrap()
                .name,
            "flow"
        );
        assert_eq!(parse("not an arn"), None);
        let q = queue_url("https://sqs.eu-west-1.amazonaws.com/111122223333/orders").unwrap();
        assert_eq!(
            (q.region.as_str(), q.name.as_str()),
            ("eu-west-1", "orders")
        );
    }
}
