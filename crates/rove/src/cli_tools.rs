//! The command line of the opt-in tools (console, network, cookies,
//! storage, state): their clap arguments and how they become commands of
//! the vocabulary. The shell has every command whatever `--caps` says.

use clap::Args;
use rove_commands as rc;

/// `--caps` of `rove mcp`, `rove run` and `rove print-config`.
#[derive(Debug, Clone, Copy, Args)]
pub struct CapsArg {
    /// Capability groups offered besides the core tools, comma-separated:
    /// devtools (console), network, state (cookies, storage), emulation
    /// (set), pdf, inspect (get), vision (mouse), forms (fill-form), or all.
    #[arg(long, value_name = "GROUPS")]
    pub caps: Option<rc::Caps>,
}

/// The examples of `rove console --help`.
pub const CONSOLE_EXAMPLES: &str = "Examples:\n  rove console\n  rove console --all --level error\nIn MCP and rove run: with --caps devtools.";

/// The examples of `rove network --help`.
pub const NETWORK_EXAMPLES: &str = "Examples:\n  rove network\n  rove network --all --type fetch --status 404\n  rove network show r3\n  rove network block '*/ads/*'\n  rove network mock /api/price --body '{\"price\": 1}'\n  rove network mock '*/api/user' --file user.json --status 200\n  rove network clear          drop the rules, forget the requests\n  rove network har run.har\nIn MCP and rove run: with --caps network.";

/// The examples of `rove cookies --help`.
pub const COOKIES_EXAMPLES: &str = "Examples:\n  rove cookies\n  rove cookies --domain example.com\n  rove cookies set --name sid --value abc --url https://example.com\n  rove cookies clear --name sid\n  rove cookies clear\nIn MCP and rove run: with --caps state.";

/// The examples of `rove storage --help`.
pub const STORAGE_EXAMPLES: &str = "Examples:\n  rove storage local\n  rove storage local set theme dark\n  rove storage session clear\n  rove storage local clear theme\nIn MCP and rove run: with --caps state.";

/// The examples of `rove state --help`.
pub const STATE_EXAMPLES: &str = "Examples:\n  rove state save login.json\n  rove state load login.json\n  rove --storage-state login.json open https://example.com/account   (a new session starts logged in)\nIn MCP and rove run: with --caps state.";

#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Every message kept, not only those since the last call.
    #[arg(long)]
    pub all: bool,
    /// Only this level and worse: debug, info, warning, error.
    #[arg(long, value_parser = ["debug", "info", "warning", "error"])]
    pub level: Option<String>,
}

/// `rove console`.
pub fn console(a: &ConsoleArgs) -> rc::Command {
    let level = a.level.as_deref().map(|l| match l {
        "debug" => rc::LevelArg::Debug,
        "warning" => rc::LevelArg::Warning,
        "error" => rc::LevelArg::Error,
        _ => rc::LevelArg::Info,
    });
    rc::Command::Console(rc::ConsoleArgs { all: a.all, level })
}

#[derive(Debug, Args)]
pub struct NetworkArgs {
    /// list, show, block, mock, clear or har.
    #[arg(default_value = "list")]
    pub action: String,
    /// show: the request (r3 or 3); block, mock: the URL glob; har: the
    /// file to write.
    pub target: Option<String>,
    /// list: only URLs containing this; block, mock: the URL glob (as the
    /// positional argument).
    #[arg(long)]
    pub url: Option<String>,
    /// list: only this resource type (document, script, fetch, xhr, image …).
    #[arg(long = "type", value_name = "TYPE")]
    pub r#type: Option<String>,
    /// list: only this status (0: failed); mock: the status to answer.
    #[arg(long)]
    pub status: Option<u16>,
    /// mock: the body to answer with.
    #[arg(long)]
    pub body: Option<String>,
    /// mock: the body from this file (under the upload roots); har: where to
    /// write (as the positional argument).
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// mock: the Content-Type (default: guessed from the file or body).
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,
    /// list: every request kept, not only those since the last call.
    #[arg(long)]
    pub all: bool,
    /// show: the most bytes of each body.
    #[arg(long, value_name = "BYTES")]
    pub max_bytes: Option<usize>,
}

/// `rove network`.
pub fn network(a: &NetworkArgs) -> Result<rc::Command, crate::failure::Failure> {
    use crate::remote::{absolute, rejected};
    let action = match a.action.as_str() {
        "list" | "ls" => rc::NetworkAction::List,
        "show" => rc::NetworkAction::Show,
        "block" => rc::NetworkAction::Block,
        "mock" => rc::NetworkAction::Mock,
        "clear" => rc::NetworkAction::Clear,
        "har" => rc::NetworkAction::Har,
        other => {
            return Err(rejected(
                format!("{other:?} is not a network action"),
                "use rove network list|show ID|block URL|mock URL|clear|har FILE",
            ));
        }
    };
    let mut args = rc::NetworkArgs {
        action,
        url: a.url.clone(),
        resource_type: a.r#type.clone(),
        status: a.status,
        body: a.body.clone(),
        file: a.file.as_deref().map(absolute),
        content_type: a.content_type.clone(),
        all: a.all,
        max_bytes: a.max_bytes,
        ..rc::NetworkArgs::default()
    };
    match (action, &a.target) {
        (rc::NetworkAction::Show, Some(id)) => {
            let number = id.trim().trim_start_matches(['r', 'R']);
            args.id = Some(number.parse().map_err(|_| {
                rejected(
                    format!("{id:?} is not a request id"),
                    "give the id rove network lists, as r3 or 3",
                )
            })?);
        }
        (rc::NetworkAction::Block | rc::NetworkAction::Mock, Some(url)) => {
            args.url = Some(url.clone());
        }
        (rc::NetworkAction::Har, Some(file)) => {
            args.file = Some(absolute(std::path::Path::new(file)));
        }
        (_, Some(extra)) => {
            return Err(rejected(
                format!("network {} takes no {extra:?}", a.action),
                "see rove network --help",
            ));
        }
        (_, None) => {}
    }
    Ok(rc::Command::Network(Box::new(args)))
}

#[derive(Debug, Args)]
pub struct CookiesArgs {
    /// get, set or clear.
    #[arg(default_value = "get")]
    pub action: String,
    /// get, clear: cookies sent to this URL; set: the cookie's URL (default:
    /// the page's).
    #[arg(long)]
    pub url: Option<String>,
    /// get, clear: cookies of this domain and its subdomains; set: the
    /// cookie's domain.
    #[arg(long)]
    pub domain: Option<String>,
    /// set: the name; get, clear: only cookies of this name.
    #[arg(long)]
    pub name: Option<String>,
    /// set: the value.
    #[arg(long)]
    pub value: Option<String>,
    /// set: the path (/).
    #[arg(long)]
    pub path: Option<String>,
    /// set: when it expires, in seconds since the epoch (default: with the
    /// session).
    #[arg(long, value_name = "SECONDS")]
    pub expires: Option<f64>,
    /// set: hidden from scripts.
    #[arg(long)]
    pub http_only: bool,
    /// set: sent over HTTPS only.
    #[arg(long)]
    pub secure: bool,
}

/// `rove cookies`.
pub fn cookies(a: &CookiesArgs) -> Result<rc::Command, crate::failure::Failure> {
    Ok(rc::Command::Cookies(Box::new(rc::CookiesArgs {
        action: store_action("cookies", &a.action)?,
        url: a.url.clone(),
        domain: a.domain.clone(),
        name: a.name.clone(),
        value: a.value.clone(),
        path: a.path.clone(),
        expires: a.expires,
        http_only: a.http_only,
        secure: a.secure,
    })))
}

#[derive(Debug, Args)]
pub struct StorageArgs {
    /// local or session.
    #[arg(value_parser = ["local", "session"])]
    pub kind: String,
    /// get, set or clear.
    #[arg(default_value = "get")]
    pub action: String,
    /// get, clear: only this key; set: the key.
    pub key: Option<String>,
    /// set: the value.
    pub value: Option<String>,
}

/// `rove storage`.
pub fn storage(a: &StorageArgs) -> Result<rc::Command, crate::failure::Failure> {
    Ok(rc::Command::Storage(rc::StorageArgs {
        kind: if a.kind == "session" {
            rc::StorageKind::Session
        } else {
            rc::StorageKind::Local
        },
        action: store_action("storage", &a.action)?,
        key: a.key.clone(),
        value: a.value.clone(),
    }))
}

fn store_action(command: &str, word: &str) -> Result<rc::StoreAction, crate::failure::Failure> {
    match word {
        "get" | "list" => Ok(rc::StoreAction::Get),
        "set" => Ok(rc::StoreAction::Set),
        "clear" => Ok(rc::StoreAction::Clear),
        other => Err(crate::remote::rejected(
            format!("{other:?} is not a {command} action"),
            "use get, set or clear",
        )),
    }
}

#[derive(Debug, Args)]
pub struct StateArgs {
    /// save or load.
    #[arg(value_parser = ["save", "load"])]
    pub action: String,
    /// The file (Playwright's storage-state JSON).
    pub file: std::path::PathBuf,
}

/// `rove state`.
pub fn state(a: &StateArgs) -> rc::Command {
    rc::Command::State(rc::StateArgs {
        action: if a.action == "load" {
            rc::StateAction::Load
        } else {
            rc::StateAction::Save
        },
        file: crate::remote::absolute(&a.file),
    })
}

/// The examples of `rove set --help`.
pub const SET_EXAMPLES: &str = "Examples:\n  rove set viewport 390 844 --scale 3\n  rove set device iPhone 15          (Pixel 8, iPad, desktop)\n  rove set media dark                (light, print, screen)\n  rove set geo 48.8584 2.2945\n  rove set offline on\n  rove set headers 'X-Test: 1' 'Authorization: Bearer …'\n  rove set headers                   (none)\n  rove set user-agent 'Mozilla/5.0 …'\n  rove set timezone Europe/Paris\n  rove set locale fr-FR\nEvery tab of the session, those opened later too.\nIn MCP and rove run: with --caps emulation.";

/// The examples of `rove pdf --help`.
pub const PDF_EXAMPLES: &str = "Examples:\n  rove pdf page.pdf\n  rove pdf invoice.pdf --format Letter --landscape --background\nHeadless only. In MCP and rove run: with --caps pdf.";

#[derive(Debug, Args)]
pub struct SetArgs {
    /// viewport, device, media, geo, offline, headers, user-agent, timezone
    /// or locale.
    #[arg(value_parser = ["viewport", "device", "media", "geo", "offline", "headers", "user-agent", "user_agent", "timezone", "locale"])]
    pub what: String,
    /// viewport: WIDTH HEIGHT; geo: LATITUDE LONGITUDE; headers: one
    /// 'Name: value' each; otherwise the value (none: the browser's own).
    #[arg(allow_negative_numbers = true)]
    pub values: Vec<String>,
    /// viewport: the device pixel ratio (1).
    #[arg(long)]
    pub scale: Option<f64>,
}

/// `rove set`.
pub fn set(a: &SetArgs) -> Result<rc::Command, crate::failure::Failure> {
    use crate::remote::rejected;
    let number = |i: usize, name: &str| -> Result<Option<f64>, crate::failure::Failure> {
        a.values
            .get(i)
            .map(|v| {
                v.parse::<f64>().map_err(|_| {
                    rejected(
                        format!("{v:?} is not a number ({name})"),
                        "see rove set --help",
                    )
                })
            })
            .transpose()
    };
    let what = match a.what.as_str() {
        "viewport" => rc::SetWhat::Viewport,
        "device" => rc::SetWhat::Device,
        "media" => rc::SetWhat::Media,
        "geo" => rc::SetWhat::Geo,
        "offline" => rc::SetWhat::Offline,
        "headers" => rc::SetWhat::Headers,
        "timezone" => rc::SetWhat::Timezone,
        "locale" => rc::SetWhat::Locale,
        _ => rc::SetWhat::UserAgent,
    };
    let mut args = rc::SetArgs {
        what,
        value: None,
        width: None,
        height: None,
        scale: a.scale,
        latitude: None,
        longitude: None,
        headers: Vec::new(),
    };
    match what {
        rc::SetWhat::Viewport => {
            let side = |i: usize, name: &str| -> Result<Option<u32>, crate::failure::Failure> {
                Ok(number(i, name)?.map(|n| n.max(0.0).min(u32::MAX as f64) as u32))
            };
            args.width = side(0, "width")?;
            args.height = side(1, "height")?;
        }
        rc::SetWhat::Geo => {
            args.latitude = number(0, "latitude")?;
            args.longitude = number(1, "longitude")?;
        }
        rc::SetWhat::Headers => args.headers = a.values.clone(),
        // A device's name may come as several words (iPhone 15).
        _ => args.value = Some(a.values.join(" ")).filter(|v| !v.is_empty()),
    }
    Ok(rc::Command::Set(args))
}

#[derive(Debug, Args)]
pub struct PdfArgs {
    /// The file to write.
    pub file: std::path::PathBuf,
    /// The paper: A4 (default), A3, A5, Letter, Legal or Tabloid.
    #[arg(long, value_parser = ["A4", "A3", "A5", "Letter", "Legal", "Tabloid"], ignore_case = true)]
    pub format: Option<String>,
    /// Landscape.
    #[arg(long)]
    pub landscape: bool,
    /// Print background colours and images.
    #[arg(long)]
    pub background: bool,
}

/// `rove pdf`.
pub fn pdf(a: &PdfArgs) -> rc::Command {
    let format = a
        .format
        .as_deref()
        .map(|f| match f.to_ascii_lowercase().as_str() {
            "a3" => rc::PaperFormat::A3,
            "a5" => rc::PaperFormat::A5,
            "letter" => rc::PaperFormat::Letter,
            "legal" => rc::PaperFormat::Legal,
            "tabloid" => rc::PaperFormat::Tabloid,
            _ => rc::PaperFormat::A4,
        });
    rc::Command::Pdf(rc::PdfArgs {
        file: crate::remote::absolute(&a.file),
        format,
        landscape: a.landscape,
        background: a.background,
    })
}

/// The examples of `rove get --help`.
pub const GET_EXAMPLES: &str = "Examples:\n  rove get text e3\n  rove get value e4\n  rove get attr href e5\n  rove get box e6\n  rove is visible e7      (also: rove is enabled, rove is checked)\nIn MCP and rove run: with --caps inspect.";

#[derive(Debug, Args)]
pub struct GetArgs {
    /// text, value, attr, box, visible, enabled or checked.
    #[arg(value_parser = ["text", "value", "attr", "box", "visible", "enabled", "checked"])]
    pub what: String,
    /// The element's ref; for attr, the attribute's name first (attr href
    /// e5).
    #[arg(required = true, num_args = 1..=2)]
    pub words: Vec<String>,
}

#[derive(Debug, Args)]
pub struct IsArgs {
    /// visible, enabled or checked.
    #[arg(value_parser = ["visible", "enabled", "checked"])]
    pub what: String,
    /// The element: a ref or a locator (css=…, role=…[name=…], text=…).
    pub target: String,
}

/// `rove get`.
pub fn get(a: &GetArgs) -> Result<rc::Command, crate::failure::Failure> {
    let what = match a.what.as_str() {
        "text" => rc::GetWhat::Text,
        "value" => rc::GetWhat::Value,
        "attr" => rc::GetWhat::Attr,
        "box" => rc::GetWhat::Box,
        "visible" => rc::GetWhat::Visible,
        "enabled" => rc::GetWhat::Enabled,
        _ => rc::GetWhat::Checked,
    };
    let (name, target) = match (what, a.words.as_slice()) {
        (rc::GetWhat::Attr, [name, target]) => (Some(name.clone()), target),
        (rc::GetWhat::Attr, _) => {
            return Err(crate::remote::rejected(
                "get attr needs the attribute's name and the ref",
                "rove get attr href e5",
            ));
        }
        (_, [target]) => (None, target),
        _ => {
            return Err(crate::remote::rejected(
                format!("get {} takes only the ref", a.what),
                "rove get text e3",
            ));
        }
    };
    Ok(rc::Command::Get(rc::GetArgs {
        what,
        target: crate::remote::target_of(target)?,
        name,
    }))
}

/// `rove is`: `get` asked as a question.
pub fn is(a: &IsArgs) -> Result<rc::Command, crate::failure::Failure> {
    get(&GetArgs {
        what: a.what.clone(),
        words: vec![a.target.clone()],
    })
}
