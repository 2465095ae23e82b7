//! Message clocks: a copy inside a transport carries the age at which its
//! retention clock started (its enqueue age), and it cannot leave the
//! transport later than that age plus the transport's retention.
//!
//! Two numbers per copy, its age and its enqueue age, are all the walk
//! keeps, so every pass stays linear. Where paths merge, each number is the
//! maximum over the paths: the departure bound `min(age + span, enqueue +
//! retention)` grows with both, so the merged bound is never below any
//! single path's (a sound upper bound, exact on a single path).
//!
//! - A new message starts its clock when it arrives: a send, a delivery
//!   into another transport, a redrive (a redriven message gets a new
//!   enqueue time, F008), a FIFO dead-letter move (F005).
//! - A move to a dead-letter queue that keeps the enqueue time (SQS
//!   standard, F004) keeps the clock of the source's message.

use crate::time::Dur;

/// How an edge out of a transport is bounded by the message clock: the
/// transport's retention, and the part of the edge's delay that comes
/// after the message left (the consumer's own retries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    retention: Dur,
    after: Dur,
}

impl Hold {
    pub fn new(retention: Dur, after: Dur) -> Hold {
        Hold { retention, after }
    }

    pub fn retention(&self) -> Dur {
        self.retention
    }

    pub fn after(&self) -> Dur {
        self.after
    }
}

/// A copy's two clocks: its age and the age at which the message it is in
/// was enqueued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Clocks {
    pub(super) age: Dur,
    pub(super) enq: Dur,
}

/// What one step along an edge did to a copy's clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Moved {
    pub(super) to: Clocks,
    /// The age the edge's delay alone would give.
    pub(super) uncapped: Dur,
    /// The message clock's deadline, when the edge leaves a transport.
    pub(super) deadline: Option<Dur>,
}

impl Moved {
    /// Whether the message clock ended the step before its delay did.
    pub(super) fn capped(&self) -> bool {
        self.to.age < self.uncapped
    }
}

/// Moves clocks `c` along an edge of `delay`, bounded by `hold` when it
/// leaves a transport; the target's clock is kept (`keeps`) or restarts.
pub(super) fn advance(c: Clocks, delay: Dur, hold: Option<Hold>, keeps: bool) -> Moved {
    let uncapped = c.age.add(delay);
    let deadline = hold.map(|h| c.enq.add(h.retention()));
    let age = match (hold, deadline) {
        (Some(h), Some(d)) => uncapped.min(d.add(h.after())),
        _ => uncapped,
    };
    let enq = if keeps { c.enq } else { age };
    Moved {
        to: Clocks { age, enq },
        uncapped,
        deadline,
    }
}

/// `later - earlier`, zero when it is not later, unbounded when `later` is.
pub(super) fn since(later: Dur, earlier: Dur) -> Dur {
    later.saturating_sub(earlier)
}

/// The clock behind one step of a worst path, for its explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockNote {
    /// The enqueue age of the message when it left the transport.
    pub enq: Dur,
    pub retention: Dur,
    /// The message kept an earlier enqueue time (a standard DLQ).
    pub kept: bool,
    /// What the step added on this path.
    pub adds: Dur,
    /// Whether the deadline, not the delay, bounded the step.
    pub capped: bool,
}

/// A [`ClockNote`] as a finished run keeps it, with the state it belongs
/// to; read back with the retention of the edge the state's worst path
/// came in by (see [`KeptClock::note`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct KeptClock {
    pub(super) state: usize,
    note: ClockNote,
}

impl KeptClock {
    pub(super) fn new(state: usize, c: &ClockNote) -> KeptClock {
        KeptClock { state, note: *c }
    }

    /// The note again, with the `retention` of the edge it was made on.
    pub(super) fn note(&self, retention: Dur) -> ClockNote {
        ClockNote {
            retention,
            ..self.note
        }
    }
}

impl ClockNote {
    /// "standard DLQ keeps the enqueue time: deadline = enqueue 0s + 14d".
    pub fn text(&self) -> String {
        let whose = if self.kept {
            "the dead-letter queue keeps the enqueue time (F004)"
        } else {
            "message clock"
        };
        let bound = if self.capped {
            ", which ends the step"
        } else {
            ""
        };
        format!(
            "{whose}: deadline = enqueue {} + {} = {}{bound}",
            self.enq,
            self.retention,
            self.enq.add(self.retention)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400;

    fn d(days: u64) -> Dur {
        Dur::secs(days * DAY)
    }

    #[test]
    fn a_standard_dlq_redrive_ends_at_enqueue_plus_retention() {
        // F004: source 4d, moved at 4d keeping enqueue 0; DLQ 14d.
        let at_dlq = advance(
            Clocks {
                age: Dur::ZERO,
                enq: Dur::ZERO,
            },
            d(4),
            Some(Hold::new(d(4), Dur::ZERO)),
            true,
        );
        assert_eq!(
            at_dlq.to,
            Clocks {
                age: d(4),
                enq: Dur::ZERO
            }
        );
        let redriven = advance(at_dlq.to, d(14), Some(Hold::new(d(14), Dur::ZERO)), false);
        assert_eq!(
            redriven.to,
            Clocks {
                age: d(14),
                enq: d(14)
            }
        );
        assert_eq!(redriven.uncapped, d(18));
        assert!(redriven.capped());
    }

    #[test]
    fn a_fifo_move_restarts_the_clock() {
        let moved = advance(
            Clocks {
                age: d(1),
                enq: Dur::ZERO,
            },
            d(4),
            Some(Hold::new(d(4), Dur::ZERO)),
            false,
        );
        // 0 + 4d caps the 1d + 4d delay; the FIFO DLQ's clock starts at 4d.
        assert_eq!(
            moved.to,
            Clocks {
                age: d(4),
                enq: d(4)
            }
        );
    }

    #[test]
    fn retries_after_the_message_left_are_not_capped() {
        let moved = advance(
            Clocks {
                age: d(1),
                enq: Dur::ZERO,
            },
            d(4).add(Dur::secs(60)),
            Some(Hold::new(d(4), Dur::secs(60))),
            false,
        );
        assert_eq!(moved.to.age, d(4).add(Dur::secs(60)));
    }
}
