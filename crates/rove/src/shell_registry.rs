//! Draft: each command's shell spelling by name, until the vocabulary's
//! entries carry it.

use crate::shell_spec::Shell;
use crate::{spell_input as i, spell_page_tools as p, spell_pages as g, spell_tools as t};

/// The spelling of the command of this name.
pub fn shell_of(name: &str) -> Option<&'static Shell> {
    Some(match name {
        "open" => &g::OPEN,
        "back" => &g::BACK,
        "forward" => &g::FORWARD,
        "reload" => &g::RELOAD,
        "snapshot" => &g::SNAPSHOT,
        "find" => &g::FIND,
        "click" => &i::CLICK,
        "hover" => &i::HOVER,
        "type" => &i::TYPE,
        "fill" => &i::FILL,
        "press" => &i::PRESS,
        "select" => &i::SELECT,
        "check" => &i::CHECK,
        "uncheck" => &i::UNCHECK,
        "scroll" => &i::SCROLL,
        "drag" => &i::DRAG,
        "upload" => &i::UPLOAD,
        "dialog" => &i::DIALOG,
        "tab" => &i::TAB,
        "screenshot" => &g::SCREENSHOT,
        "read" => &g::READ,
        "wait" => &g::WAIT,
        "close" => &i::CLOSE,
        "eval" => &g::EVAL,
        "console" => &t::CONSOLE,
        "network" => &t::NETWORK,
        "cookies" => &t::COOKIES,
        "storage" => &t::STORAGE,
        "state" => &t::STATE,
        "set" => &p::SET,
        "pdf" => &p::PDF,
        "get" => &p::GET,
        "mouse" => &p::MOUSE,
        "fill-form" => &p::FILL_FORM,
        _ => return None,
    })
}
