//! `rove-page`: the text an LLM reads about a page, and the refs it acts with.
//!
//! A walker script runs in an isolated world of every frame (out-of-process
//! iframes included) and reads the page through Chromium's own accessibility
//! computations (`Element.computedRole`, `Element.computedName`), layout
//! visibility, open and closed shadow roots, and click listeners found through
//! `DOMDebugger`. The Rust side stitches frames, hands out refs that never
//! name a second element ([`Ref`]), renders compact views within a token
//! budget, diffs observations, finds elements the budget cut, and resolves
//! locators (`css=`, `role=`, `text=`) to refs.
//!
//! The format is documented in `docs/view-format.md`. This crate sits on
//! `rove-browser` and knows nothing of actions, commands or agents.

#![forbid(unsafe_code)]

mod captcha;
mod diff;
mod error;
mod frames;
mod locator;
mod model;
mod native;
mod record;
mod refs;
mod render;
mod roles;
pub mod tokens;
#[cfg(test)]
mod view_tests;
mod walker;

pub use captcha::{Challenge, ImageChallenge};
pub use error::{LOCATOR_FORMS, PageError};
pub use locator::{Locator, NameMatch, Target};
pub use model::{
    DEFAULT_BUDGET, Element, FindQuery, Located, Match, Mode, PageModel, View, ViewOptions,
};
pub use native::{NativeElement, NativeModel, NativeStates};
pub use refs::{NotARef, Ref};
pub use render::{escape_markdown, title_text};
pub use roles::{INTERACTIVE_ROLES, is_interactive};
