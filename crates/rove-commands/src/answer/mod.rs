//! What a command answers: an [`Outcome`] (what happened, as typed
//! [`Happened`] events, the view after it, data, an image, downloads) or a
//! [`CommandError`], and the faults a tab can meet on the way. Every face
//! renders these; none builds its own.

mod data;
pub(crate) mod error;
pub(crate) mod fault;
pub(crate) mod happened;
mod mouse_did;
pub(crate) mod outcome;
mod quote;
pub(crate) mod solver_error;

pub use data::Data;
pub use error::{CommandError, ErrorReport, NavigationFailure};
pub use fault::{EvalStop, Fault, Recovery, TabFault};
pub use happened::{Answer, ClickKind, Happened, Shot};
pub use mouse_did::MouseDid;
pub use outcome::{Download, Image, Outcome, Timing};
pub(crate) use quote::quote_line;
pub use solver_error::SolverError;
