//! Commands that send input: actions on elements by ref (`click`, `hover`,
//! `type`, `fill`, `press`, `select`, `check`, `scroll`, `drag`),
//! `fill-form`, and `mouse` at coordinates of the viewport.

pub(crate) mod act;
pub(crate) mod fill_form;
pub(crate) mod mouse;
pub(crate) mod pointer;
pub(crate) mod upload;
