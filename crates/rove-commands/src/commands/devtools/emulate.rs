//! `set` (group `emulation`): a device's screen, touch and user agent, a
//! colour scheme or print media, a position, no network, extra headers, a
//! time zone or a locale, for every tab of the session.
//!
//! Chromium keeps emulation per page, so each setting is stored in the
//! session's browser context as the CDP calls that make it (see
//! `rove_browser::BrowserContext::set_emulation`) and replayed on every tab,
//! those opened later included. The answer says what changed and where;
//! the values of credential headers are never echoed.

use rove_browser::EmulationCall;
use rove_cdp::protocol::browser::{GrantPermissions, PermissionType};
use rove_cdp::protocol::{emulation, network};
use serde_json::{Value, json};

use crate::{CommandError, Data, Outcome, Session, SetArgs, SetWhat};

/// A device of the built-in table.
struct Device {
    name: &'static str,
    width: u32,
    height: u32,
    scale: f64,
    mobile: bool,
    /// `None`: the browser's own user agent.
    user_agent: Option<&'static str>,
}

/// The devices `set device` knows (their CSS viewport, pixel ratio, touch
/// and user agent as the real devices report them).
const DEVICES: &[Device] = &[
    Device {
        name: "iPhone 15",
        width: 393,
        height: 852,
        scale: 3.0,
        mobile: true,
        user_agent: Some(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        ),
    },
    Device {
        name: "Pixel 8",
        width: 412,
        height: 915,
        scale: 2.625,
        mobile: true,
        user_agent: Some(
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
        ),
    },
    Device {
        name: "iPad",
        width: 820,
        height: 1180,
        scale: 2.0,
        mobile: true,
        user_agent: Some(
            "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        ),
    },
    Device {
        name: "desktop",
        width: 1280,
        height: 720,
        scale: 1.0,
        mobile: false,
        user_agent: None,
    },
];

/// The device a name means, ignoring case, spaces and dashes.
fn device(name: &str) -> Option<&'static Device> {
    let squash = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let wanted = squash(name);
    DEVICES.iter().find(|d| {
        let own = squash(d.name);
        own == wanted || (wanted.len() >= 4 && own.starts_with(&wanted))
    })
}

fn metrics(width: u32, height: u32, scale: f64, mobile: bool) -> EmulationCall {
    EmulationCall::Metrics(emulation::SetDeviceMetricsOverride {
        width: i64::from(width),
        height: i64::from(height),
        device_scale_factor: scale,
        mobile,
        screen_width: Some(i64::from(width)),
        screen_height: Some(i64::from(height)),
        ..Default::default()
    })
}

fn touch(on: bool) -> EmulationCall {
    EmulationCall::Touch(emulation::SetTouchEmulationEnabled {
        enabled: on,
        max_touch_points: Some(if on { 5 } else { 1 }),
    })
}

/// An empty user agent is how CDP drops an override.
fn user_agent(agent: &str) -> EmulationCall {
    EmulationCall::UserAgent(emulation::SetUserAgentOverride {
        user_agent: agent.to_owned(),
        ..Default::default()
    })
}

/// What `set` changes: each emulation key with its calls.
type Settings = Vec<(&'static str, Vec<EmulationCall>)>;

/// `set headers`: the extra headers every request carries; a credential's
/// value is not echoed.
fn header_settings(lines: &[String]) -> Result<(Settings, String), CommandError> {
    let mut headers = serde_json::Map::new();
    let mut shown = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            // The line itself is not echoed: it may hold a secret.
            return Err(rejected("a header has no ':'; write Name: value"));
        };
        let name = name.trim();
        let token = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token {
            return Err(rejected(&format!("{name:?} is not a header name")));
        }
        if breaks_every_request(name) {
            return Err(rejected(&format!(
                "{name} cannot be set: Chromium fails every request that carries it as an extra header (net::ERR_INVALID_ARGUMENT); nothing was changed"
            )));
        }
        headers.insert(name.to_owned(), json!(value.trim()));
        shown.push(if rove_base::redact::is_secret_header(name) {
            format!("{name}: (hidden)")
        } else {
            format!("{name}: {}", value.trim())
        });
    }
    let said = if shown.is_empty() {
        "no extra headers are sent".to_owned()
    } else {
        format!("every request carries {}", shown.join(", "))
    };
    Ok((
        vec![(
            "headers",
            vec![EmulationCall::Headers(network::SetExtraHTTPHeaders {
                headers: Value::Object(headers),
            })],
        )],
        said,
    ))
}

impl Session {
    pub(crate) async fn emulate(
        &mut self,
        args: &SetArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let value = args
            .value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty());
        let (settings, said) = match args.what {
            SetWhat::Viewport => {
                let (Some(width), Some(height)) = (args.width, args.height) else {
                    return Err(rejected("set viewport needs width and height"));
                };
                if !(50..=10_000).contains(&width) || !(50..=10_000).contains(&height) {
                    return Err(rejected("each side of the viewport is 50 to 10000 pixels"));
                }
                let scale = args.scale.unwrap_or(1.0);
                if !(scale > 0.0 && scale <= 10.0) {
                    return Err(rejected("scale is above 0 and at most 10"));
                }
                (
                    vec![("metrics", vec![metrics(width, height, scale, false)])],
                    format!("the viewport is {width}×{height} CSS pixels at scale {scale}"),
                )
            }
            SetWhat::Device => self.device_settings(value)?,
            SetWhat::Media => self.media_settings(value)?,
            SetWhat::Geo => return self.set_geo(args, out).await,
            SetWhat::Offline => {
                let offline = match value.map(str::to_ascii_lowercase).as_deref() {
                    Some("on" | "true" | "yes") => true,
                    Some("off" | "false" | "no") => false,
                    _ => return Err(rejected("set offline takes on or off")),
                };
                (
                    vec![(
                        "offline",
                        vec![EmulationCall::Network(network::EmulateNetworkConditions {
                            offline,
                            latency: 0.0,
                            download_throughput: -1.0,
                            upload_throughput: -1.0,
                            ..Default::default()
                        })],
                    )],
                    if offline {
                        "the network is offline: every request fails".to_owned()
                    } else {
                        "the network is back online".to_owned()
                    },
                )
            }
            SetWhat::Headers => header_settings(&args.headers)?,
            SetWhat::UserAgent => (
                vec![("user_agent", vec![user_agent(value.unwrap_or(""))])],
                match value {
                    Some(agent) => format!("the user agent is {agent:?}"),
                    None => "the user agent is the browser's".to_owned(),
                },
            ),
            SetWhat::Timezone if value.is_some() && !self.intl_takes("timeZone", value).await? => {
                return Err(rejected(&format!(
                    "{:?} is not a time zone; give an IANA name such as Europe/Paris",
                    value.unwrap_or_default()
                )));
            }
            SetWhat::Locale if value.is_some() && !self.intl_takes("locale", value).await? => {
                return Err(rejected(&format!(
                    "{:?} is not a locale; give a language tag such as fr-FR",
                    value.unwrap_or_default()
                )));
            }
            SetWhat::Timezone => (
                vec![(
                    "timezone",
                    vec![EmulationCall::Timezone(emulation::SetTimezoneOverride {
                        timezone_id: value.unwrap_or("").to_owned(),
                    })],
                )],
                match value {
                    Some(zone) => format!("the time zone is {zone}"),
                    None => "the time zone is the system's".to_owned(),
                },
            ),
            SetWhat::Locale => (
                vec![(
                    "locale",
                    vec![EmulationCall::Locale(emulation::SetLocaleOverride {
                        locale: value.map(str::to_owned),
                    })],
                )],
                match value {
                    Some(locale) => format!("the locale is {locale}"),
                    None => "the locale is the system's".to_owned(),
                },
            ),
        };
        for (key, calls) in settings {
            self.set_everywhere(key, calls).await?;
        }
        out.data = Some(Data::Text(self.on_every_tab(&said)));
        Ok(())
    }

    /// `set device`: the device's size, scale, touch and user agent.
    fn device_settings(&self, value: Option<&str>) -> Result<(Settings, String), CommandError> {
        let Some(d) = value.and_then(device) else {
            return Err(rejected(&format!(
                "set device takes one of: {}",
                DEVICES
                    .iter()
                    .map(|d| d.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let (width, height) = match (d.user_agent, self.config().viewport) {
            // desktop is the session's own size.
            (None, Some(v)) => (v.width, v.height),
            _ => (d.width, d.height),
        };
        let settings = vec![
            ("metrics", vec![metrics(width, height, d.scale, d.mobile)]),
            ("touch", vec![touch(d.mobile)]),
            ("user_agent", vec![user_agent(d.user_agent.unwrap_or(""))]),
        ];
        let input = if d.mobile { "touch" } else { "mouse" };
        let agent = if d.user_agent.is_some() {
            "its user agent"
        } else {
            "the browser's user agent"
        };
        Ok((
            settings,
            format!(
                "the device is {}: {width}×{height} CSS pixels at scale {}, {}, {input}, {agent}",
                d.name,
                d.scale,
                if d.mobile { "mobile" } else { "desktop" }
            ),
        ))
    }

    /// `set media`: print or screen, and the color scheme, over what was
    /// set before.
    fn media_settings(&self, value: Option<&str>) -> Result<(Settings, String), CommandError> {
        let before = self.context().emulation("media");
        let mut params = before
            .and_then(|calls| calls.into_iter().next())
            .and_then(|call| match call {
                EmulationCall::Media(media) => Some(media),
                _ => None,
            })
            .unwrap_or_else(|| emulation::SetEmulatedMedia {
                media: Some(String::new()),
                features: Some(Vec::new()),
            });
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some(scheme @ ("dark" | "light")) => {
                params.features = Some(vec![emulation::MediaFeature {
                    name: "prefers-color-scheme".to_owned(),
                    value: scheme.to_owned(),
                }]);
            }
            Some("print") => params.media = Some("print".to_owned()),
            Some("screen") => params.media = Some(String::new()),
            _ => return Err(rejected("set media takes dark, light, print or screen")),
        }
        let scheme = params
            .features
            .iter()
            .flatten()
            .next()
            .map_or("the browser's", |f| f.value.as_str())
            .to_owned();
        let media = if params.media.as_deref() == Some("print") {
            "print"
        } else {
            "screen"
        };
        Ok((
            vec![("media", vec![EmulationCall::Media(params)])],
            format!("the media is {media}, color scheme {scheme}"),
        ))
    }

    /// One setting on every tab, within [`rove_base::limits::EMULATION_SET`]; the browser's refusal
    /// of a value (an unknown time zone …) is the caller's to fix.
    async fn set_everywhere(
        &self,
        key: &str,
        calls: Vec<EmulationCall>,
    ) -> Result<(), CommandError> {
        match tokio::time::timeout(
            rove_base::limits::EMULATION_SET,
            self.context().set_emulation(key, calls),
        )
        .await
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(rove_browser::BrowserError::Cdp(rove_cdp::CdpError::Protocol {
                message,
                ..
            }))) => Err(rejected(&format!("the browser refused it: {message}"))),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(rejected(&format!(
                "the tabs did not take the setting within {} s",
                rove_base::limits::EMULATION_SET.as_secs()
            ))),
        }
    }

    /// Whether the page's `Intl` accepts `value` as a time zone (`timeZone`)
    /// or a locale: Chromium takes an unknown zone without a word and falls
    /// back to UTC, which would pass for success.
    async fn intl_takes(&self, kind: &str, value: Option<&str>) -> Result<bool, CommandError> {
        let value = serde_json::to_string(&value).unwrap_or_else(|_| "null".into());
        let script = if kind == "timeZone" {
            format!(
                "(() => {{ try {{ new Intl.DateTimeFormat('en', {{timeZone: {value}}}); return true; }} catch (e) {{ return false; }} }})()"
            )
        } else {
            format!(
                "(() => {{ try {{ return Intl.getCanonicalLocales({value}).length === 1; }} catch (e) {{ return false; }} }})()"
            )
        };
        let tab = self.focused()?;
        // The check is a script: a dialog would hold it until the deadline.
        crate::session::refuse_if_dialog(&tab).await?;
        match tokio::time::timeout(
            rove_base::limits::EMULATION_SET,
            tab.evaluate_in_rove_world(&script),
        )
        .await
        {
            Ok(answer) => Ok(answer? == json!(true)),
            Err(_) => Err(rejected("the page did not answer in time")),
        }
    }

    /// Makes again, on this session's tabs, the emulation a session before
    /// it had (its browser died and was started again): the new session
    /// must not silently show pages as another device. Returns what to say
    /// about it, if anything was carried over. `geo_origins`: where the old
    /// session had granted the position.
    pub(crate) async fn restore_emulation(
        &mut self,
        settings: Vec<(String, Vec<EmulationCall>)>,
        geo_origins: Vec<String>,
    ) -> Option<String> {
        if settings.is_empty() {
            return None;
        }
        let mut kept = Vec::new();
        let mut lost = Vec::new();
        for (key, calls) in settings {
            match self.set_everywhere(&key, calls).await {
                Ok(()) => kept.push(key),
                Err(e) => {
                    tracing::warn!(setting = %key, error = %e, "an emulation setting was not made again");
                    lost.push(key);
                }
            }
        }
        let mut said = String::new();
        if !kept.is_empty() {
            said = format!(
                "the emulation set before ({}) is made again",
                kept.join(", ")
            );
            if kept.iter().any(|k| k == "geo") {
                let refused = self.grant_geo_again(geo_origins).await;
                if !refused.is_empty() {
                    said.push_str(&format!(
                        "; the position's permission for {} is not: set geo again on the page",
                        refused.join(", ")
                    ));
                }
            }
        }
        if !lost.is_empty() {
            if !said.is_empty() {
                said.push_str("; ");
            }
            said.push_str(&format!(
                "the new browser refused ({}): set them again",
                lost.join(", ")
            ));
        }
        Some(said)
    }

    /// Grants the position again to each origin; returns those the browser
    /// refused.
    async fn grant_geo_again(&mut self, origins: Vec<String>) -> Vec<String> {
        let mut refused = Vec::new();
        for origin in origins {
            match self.grant_geo(&origin).await {
                Ok(()) => {}
                Err(e) => {
                    tracing::warn!(%origin, error = %e, "the position was not granted again");
                    refused.push(self.shown_url(&origin));
                }
            }
        }
        refused
    }

    /// Lets `origin` read the position, and remembers it for a restart.
    async fn grant_geo(&mut self, origin: &str) -> Result<(), CommandError> {
        self.browser_send(&GrantPermissions {
            permissions: vec![PermissionType::Geolocation],
            origin: Some(origin.to_owned()),
            browser_context_id: Some(self.context().id().to_owned()),
        })
        .await?;
        if !self.geo_origins().iter().any(|o| o == origin) {
            self.add_geo_origin(origin.to_owned());
        }
        Ok(())
    }

    /// `said`, and where it holds.
    fn on_every_tab(&self, said: &str) -> String {
        let tabs: Vec<String> = self
            .context()
            .tabs()
            .iter()
            .map(|t| t.id.to_string())
            .collect();
        format!(
            "set: {said}, on every tab of the session ({}) and those opened later\n",
            if tabs.is_empty() {
                "none open".to_owned()
            } else {
                tabs.join(", ")
            }
        )
    }

    /// `set geo`: the position, and the permission to read it for the
    /// focused page's origin (the browser would otherwise ask, and headless
    /// no one answers).
    async fn set_geo(&mut self, args: &SetArgs, out: &mut Outcome) -> Result<(), CommandError> {
        let (Some(latitude), Some(longitude)) = (args.latitude, args.longitude) else {
            return Err(rejected("set geo needs latitude and longitude"));
        };
        if !(-90.0..=90.0).contains(&latitude) || !(-180.0..=180.0).contains(&longitude) {
            return Err(rejected(
                "latitude is -90 to 90 and longitude -180 to 180 degrees",
            ));
        }
        let origin = crate::session::shown::origin_of(&self.current_url());
        if !origin.starts_with("http") {
            return Err(rejected(
                "set geo grants the position to the page's origin: open a web page first",
            ));
        }
        self.grant_geo(&origin).await?;
        self.set_everywhere(
            "geo",
            vec![EmulationCall::Geolocation(
                emulation::SetGeolocationOverride {
                    latitude: Some(latitude),
                    longitude: Some(longitude),
                    accuracy: Some(10.0),
                    ..Default::default()
                },
            )],
        )
        .await?;
        let said = format!(
            "the position is {latitude}, {longitude} (granted to {})",
            self.shown_url(&origin)
        );
        out.data = Some(Data::Text(self.on_every_tab(&said)));
        Ok(())
    }
}

fn rejected(message: &str) -> CommandError {
    CommandError::Rejected(message.to_owned())
}

/// Whether Chromium fails every request that carries `name` as an extra
/// header (net::ERR_INVALID_ARGUMENT, measured on Chromium 156): the
/// headers the network stack sets itself, and `Cookie2` and `Set-Cookie`.
/// `Cookie`, `Referer`, `Origin` and the like are sent as given.
fn breaks_every_request(name: &str) -> bool {
    const REFUSED: [&str; 9] = [
        "host",
        "content-length",
        "keep-alive",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "cookie2",
        "set-cookie",
    ];
    let name = name.to_ascii_lowercase();
    REFUSED.contains(&name.as_str()) || name.starts_with("proxy-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_are_forgiving_but_not_loose() {
        assert_eq!(device("iphone-15").map(|d| d.name), Some("iPhone 15"));
        assert_eq!(device("Pixel8").map(|d| d.name), Some("Pixel 8"));
        assert_eq!(device("IPAD").map(|d| d.name), Some("iPad"));
        assert_eq!(device("desk").map(|d| d.name), Some("desktop"));
        assert!(device("i").is_none());
        assert!(device("nokia").is_none());
    }
}
