//! Event-source mappings out of a stream (Kinesis, DynamoDB Streams, any
//! `stream` polled into a function, F026): a failing batch is retried while
//! its records are still in the stream, until they expire or reach the
//! mapping's `max_record_age` (F027). The retries therefore happen inside
//! the record's life: they change how many attempts there are (duplicates),
//! not how late the last one can start, and the facts give no time per
//! retry. A record can also wait behind a failing batch of its shard for up
//! to the same bound (F027), so a declared retry span never lowers it
//! either: the step is min(retention, `max_record_age`) after the enqueue.

use super::edge_model::Why;
use crate::catalog::Generic;
use crate::manifest::model::LinkType;
use crate::time::Dur;

/// Whether a link of type `ty` from a `from` component to a `to` component
/// is an event-source mapping that polls a stream.
pub(super) fn polls_stream(ty: LinkType, from: Generic, to: Generic) -> bool {
    ty == LinkType::DeliversTo && from == Generic::Stream && to == Generic::Function
}

/// The delay of a stream mapping whose retries (declared on the link) span
/// `retries` and whose records live for `span`: the span alone.
pub(super) fn stream_delay(retries: Dur, span: Dur, why: &mut Why) -> Dur {
    if retries > Dur::ZERO {
        why.add(|| {
            format!(
                "the mapping retries a failing batch while its records are in the stream (F027): the retries ({retries}) end with the record, within {span}, and add nothing"
            )
        });
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_delivery_from_a_stream_into_a_function_is_a_stream_mapping() {
        use Generic::*;
        assert!(polls_stream(LinkType::DeliversTo, Stream, Function));
        assert!(!polls_stream(LinkType::DeliversTo, Queue, Function));
        assert!(!polls_stream(LinkType::DeliversTo, Stream, Service));
        assert!(!polls_stream(LinkType::DeadLetter, Stream, Function));
    }

    #[test]
    fn retries_do_not_add_to_the_record_life() {
        let mut why = Why(Some(Vec::new()));
        let d = stream_delay(Dur::secs(90), Dur::secs(86_400), &mut why);
        assert_eq!(d, Dur::secs(86_400));
        assert_eq!(
            why.0.unwrap(),
            vec![
                "the mapping retries a failing batch while its records are in the stream (F027): the retries (1m 30s) end with the record, within 1d, and add nothing"
                    .to_string()
            ]
        );
    }
}
