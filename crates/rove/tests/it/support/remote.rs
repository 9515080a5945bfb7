//! A browser rove did not start, and a TCP proxy in front of it whose
//! connections can be cut and whose port can stop and start listening (both
//! shared through `rove-testkit`).

#![allow(unused_imports)]

pub use rove_testkit::{External, Proxy};
