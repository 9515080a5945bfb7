//! Commands on the page as a whole: `open`, `back`, `forward`, `reload`,
//! `snapshot`, `find`, `read`, `wait`, `screenshot`, `eval`, `tab` and
//! `dialog`.

pub(crate) mod eval;
pub(crate) mod mask;
pub(crate) mod navigate;
pub(crate) mod observe;
pub(crate) mod screenshot;
pub(crate) mod solve;
pub mod solver;
pub(crate) mod tabs;
pub(crate) mod wait;
